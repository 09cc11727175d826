/** The page a step of the flow decided on (domain/page-answers' CheckoutPage), as the HTML the buyer gets. */
import type { CheckoutView } from '@gateway/contracts';
import type { BrandView } from '../domain/branding.js';
import type { CardField, CardFieldError } from '../domain/card-form.js';
import type { CheckoutPage, PaymentPage } from '../domain/page-answers.js';
import { renderBankPage, renderBankRefusedPage, renderMethodPage } from './bank-pages.js';
import { isMessageKey, pageTranslator, type MessageKey, type PageTranslate } from './catalogue/index.js';
import { renderPaymentPage } from './payment-page.js';
import { renderCheckoutLinkExpiredPage, renderOutcomePage, renderProcessingPage, renderRedirectPage, renderUnavailablePage } from './status-pages.js';
import { renderWalletPage, renderWalletRefusedPage } from './wallet-page.js';
import type { OrderView, PaymentPageView } from './views.js';

const LEAVING_HEADINGS: Readonly<Record<'succeeded' | 'failed', MessageKey>> = { succeeded: 'succeeded_title', failed: 'failed_title' };
const OUTCOME_TEXTS: Readonly<Record<'succeeded' | 'failed' | 'canceled', MessageKey>> = { succeeded: 'succeeded_text', failed: 'failed_text', canceled: 'canceled_text' };

/** The HTML of `page`, in its language; the card form with the merchant's `brand`. */
export function renderCheckoutPage(page: CheckoutPage, brand: BrandView = {}): string {
  const t = pageTranslator(page.language);
  switch (page.page) {
    case 'payment':
      return renderPaymentPage(t, { ...paymentView(t, page), brand });
    case 'processing':
      return renderProcessingPage(t, orderView(page.session), page.refreshUrl, page.refreshSeconds);
    case 'bank':
      return renderBankPage(t, page.form);
    case 'method':
      return renderMethodPage(t, { form: page.form, continueUrl: page.continueUrl, waitMs: page.waitMs });
    case 'bank-refused':
      return page.wallet === undefined ? renderBankRefusedPage(t) : renderWalletRefusedPage(t);
    case 'wallet':
      return renderWalletPage(t, page.url);
    case 'leaving':
      return renderRedirectPage(t, page.url, t(LEAVING_HEADINGS[page.outcome]));
    case 'outcome':
      return renderOutcomePage(t, page.outcome === 'succeeded' ? 'succeeded' : 'failed', t(OUTCOME_TEXTS[page.outcome]), orderView(page.session));
    case 'checkout-link-expired':
      return renderCheckoutLinkExpiredPage(t, page.reason);
    case 'unavailable':
      return renderUnavailablePage(t, page.reason ?? 'merchant');
  }
}

function paymentView(t: PageTranslate, page: PaymentPage): PaymentPageView {
  const { token, previousDecline, refused } = page;
  const view: PaymentPageView = {
    order: orderView(page.session),
    actionUrl: `/checkout/${token}/pay`,
    cancelHref: `/checkout/${token}/cancel`,
  };
  if (page.session.save_card === 'on_session' || page.session.save_card === 'off_session') view.saveCard = page.session.save_card;
  if (page.session.saved_cards && page.session.saved_cards.length > 0) view.savedCards = page.session.saved_cards.map((card) => ({ id: card.id, label: savedCardLabel(card) }));
  if (page.savedRefused) view.savedRefused = { paymentMethod: page.savedRefused.paymentMethod, error: t(page.savedRefused.error) };
  if (page.session.wallets?.includes('flouci')) view.flouciActionUrl = `/checkout/${token}/wallet/flouci`;
  if (previousDecline) {
    view.notice = t(declineKey(previousDecline.failureCode));
    view.attemptsLeft = previousDecline.attemptsLeft;
  }
  if (refused) {
    view.fieldErrors = fieldErrors(t, refused.errors);
    view.values = refused.values;
  }
  return view;
}

/** `Visa •••• 4242` (D24): the brand as cards print it, and the last four digits. */
function savedCardLabel(card: { card_brand: string; card_last_four: string }): string {
  const brand = BRAND_NAMES[card.card_brand] ?? card.card_brand;
  return `${brand} •••• ${card.card_last_four}`;
}

const BRAND_NAMES: Readonly<Record<string, string>> = { visa: 'Visa', mastercard: 'Mastercard', amex: 'American Express' };

function fieldErrors(t: PageTranslate, errors: Partial<Record<CardField, CardFieldError>>): Partial<Record<CardField, string>> {
  const worded: Partial<Record<CardField, string>> = {};
  for (const [field, key] of Object.entries(errors) as [CardField, CardFieldError][]) worded[field] = t(key);
  return worded;
}

function orderView(view: CheckoutView): OrderView {
  const converted = view.original.currency !== 'TND';
  return {
    merchantName: view.merchant_name,
    amount: view.amount,
    ...(converted ? { original: { amount: view.original.amount, currency: view.original.currency } } : {}),
    description: view.description,
    items: view.items,
    orderNumber: view.order_number,
    livemode: view.livemode,
  };
}

/** The catalogue's wording of a decline (D8 codes, D26's wallet ones); any other code gets the general one. */
function declineKey(failureCode: string): MessageKey {
  const key = `decline_${failureCode}`;
  return isMessageKey(key) ? key : 'decline_other';
}
