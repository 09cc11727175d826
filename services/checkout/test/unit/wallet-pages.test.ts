/**
 * Flouci on the hosted page (D26): the "Pay with Flouci" form beside the card
 * form when the session offers it, in each language, again after a failed
 * attempt; the page that hands the buyer to Flouci; and the wallet's declines.
 */
import assert from 'node:assert/strict';
import type { CheckoutView } from '@gateway/contracts';
import type { Language } from '@gateway/i18n';
import type { CheckoutPage } from '../../src/domain/page-answers.js';
import { pageHeaders } from '../../src/http/page-headers.js';
import { pageTranslator, renderCheckoutPage, renderWalletPage, renderWalletRefusedPage } from '../../src/pages/index.js';

function session(overrides: Partial<CheckoutView> = {}): CheckoutView {
  return {
    session_id: 'ps_1',
    status: 'CREATED',
    merchant_name: 'Librairie Al Kitab',
    livemode: false,
    order_number: 'ORD-1042',
    amount: '12.500',
    original: { amount: '12.500', currency: 'TND' },
    description: 'Two books',
    items: [],
    return_url: '',
    cancel_url: '',
    max_attempts: 3,
    attempts_count: 0,
    last_failure_code: '',
    last_failure_message: '',
    locale: 'en',
    ...overrides,
  } as CheckoutView;
}

function paymentPage(language: Language, view: CheckoutView, previousDecline?: { failureCode: string; attemptsLeft: number }): string {
  return renderCheckoutPage({ page: 'payment', language, token: 'tok123', session: view, ...(previousDecline && { previousDecline }) });
}

/** The form whose action is `action`, opening tag to closing tag; undefined when there is none. */
function formPostingTo(html: string, action: string): string | undefined {
  return [...html.matchAll(/<form [^>]*>[\s\S]*?<\/form>/g)].map((m) => m[0]).find((form) => form.includes(`action="${action}"`));
}

const FLOUCI_ACTION = '/checkout/tok123/wallet/flouci';
const BUTTONS: Readonly<Record<Language, string>> = { en: 'Pay with Flouci', fr: 'Payer avec Flouci', ar: 'ادفع عبر Flouci' };

describe('Flouci on the hosted page', () => {
  describe('the payment page', () => {
    for (const language of ['en', 'fr', 'ar'] as const) {
      it(`When the session offers Flouci and the page is in ${language}, then a form of its own posts to the wallet address with a submit button in that language and the page's language`, () => {
        const html = paymentPage(language, session({ wallets: ['flouci'] }));
        const form = formPostingTo(html, FLOUCI_ACTION);
        assert.ok(form, 'a form posting to the wallet address');
        assert.match(form, /^<form class="wallet-form" method="post" action="[^"]*">/);
        assert.deepEqual([...form.matchAll(/<button type="submit"[^>]*>([^<]*)<\/button>/g)].map((m) => m[1]), [BUTTONS[language]]);
        assert.ok(BUTTONS[language].startsWith(pageTranslator(language)('pay_with_flouci')));
        assert.match(form, new RegExp(`<input type="hidden" name="language" value="${language}">`));
        assert.doesNotMatch(form, /name="card_number"|name="cvc"/, 'no card field goes with it');
      });
    }

    it('When the session offers Flouci, then the button sits in a section named by its own heading, after the card form and before the cancel link', () => {
      const html = paymentPage('en', session({ wallets: ['flouci'] }));
      assert.match(html, /<section class="wallets" aria-labelledby="wallets-heading">\n<h2 id="wallets-heading">Other ways to pay<\/h2>/);
      const card = html.indexOf('action="/checkout/tok123/pay"');
      const wallet = html.indexOf(`action="${FLOUCI_ACTION}"`);
      assert.ok(card > 0 && card < wallet && wallet < html.indexOf('Cancel payment'));
      assert.equal(html.match(/<button[^>]*class="pay"/g)?.length, 1, 'the card form keeps the one "pay" button');
    });

    it('When the session offers no wallet (none listed, or an empty list), then no Flouci form and no wallet heading', () => {
      for (const view of [session(), session({ wallets: [] })]) {
        const html = paymentPage('en', view);
        assert.equal(formPostingTo(html, FLOUCI_ACTION), undefined);
        assert.doesNotMatch(html, /Flouci|wallets-heading/);
      }
    });

    it('When a Flouci payment was declined or expired and attempts remain, then the page says so in each language and offers the card form and Flouci again', () => {
      const expected = {
        wallet_declined: { en: /The Flouci payment was declined; nothing was charged\./, fr: /Le paiement Flouci a été refusé/, ar: /رُفضت عملية الدفع عبر Flouci/ },
        wallet_expired: { en: /The Flouci payment was not completed in time/, fr: /n'a pas été finalisé à temps/, ar: /لم تُستكمل عملية الدفع عبر Flouci/ },
      } as const;
      for (const [failureCode, byLanguage] of Object.entries(expected)) {
        for (const language of ['en', 'fr', 'ar'] as const) {
          const view = session({ status: 'PENDING', attempts_count: 1, last_failure_code: failureCode, last_failure_message: 'x', wallets: ['flouci'] });
          const html = paymentPage(language, view, { failureCode, attemptsLeft: 2 });
          const alert = html.match(/<div class="notice" role="alert">([\s\S]*?)<\/div>/)?.[1] ?? '';
          assert.match(alert.replace(/&#39;/g, "'"), byLanguage[language], `${failureCode} in ${language}`);
          assert.ok(formPostingTo(html, FLOUCI_ACTION), 'Flouci again');
          assert.ok(formPostingTo(html, '/checkout/tok123/pay'), 'the card form again');
        }
      }
    });
  });

  describe('the hand-off to Flouci', () => {
    const url = 'https://flouci.example/pay/abc?lang=fr&x=1';

    it('When the hand-off page renders, then it refreshes at once to the wallet page and shows a "Continue to Flouci" link to it, with no script and no form', () => {
      const html = renderWalletPage(pageTranslator('en'), url);
      assert.ok(html.includes('<meta http-equiv="refresh" content="0;url=https://flouci.example/pay/abc?lang=fr&amp;x=1">'));
      assert.match(html, /<h1>Redirecting to Flouci<\/h1>/);
      assert.ok(html.includes('<a class="button" href="https://flouci.example/pay/abc?lang=fr&amp;x=1" rel="noreferrer">Continue to Flouci</a>'));
      assert.doesNotMatch(html, /<script|<form|\sstyle=|\son[a-z]+=/i);
    });

    it('When the hand-off page is in French or Arabic, then its heading and link are in that language, the Arabic page right to left', () => {
      assert.match(renderWalletPage(pageTranslator('fr'), url), /<html lang="fr" dir="ltr">[\s\S]*<h1>Redirection vers Flouci<\/h1>[\s\S]*>Continuer vers Flouci<\/a>/);
      assert.match(renderWalletPage(pageTranslator('ar'), url), /<html lang="ar" dir="rtl">[\s\S]*<h1>جارٍ تحويلك إلى Flouci<\/h1>[\s\S]*>المتابعة إلى Flouci<\/a>/);
    });

    it('When the wallet URL holds quotes or markup, then it stays inside its attributes', () => {
      const hostile = 'https://flouci.example/"><script>alert(1)</script>';
      const html = renderWalletPage(pageTranslator('en'), hostile);
      assert.doesNotMatch(html.replace(/"[^"]*"/g, '""'), /<script/);
    });

    it("When the domain answers a hand-off, then the page is the wallet page under D9's own headers: a navigation, which form-action does not govern", () => {
      const page: CheckoutPage = { page: 'wallet', language: 'en', url };
      assert.equal(pageHeaders(page), undefined);
      assert.ok(renderCheckoutPage(page).includes('Continue to Flouci'));
    });

    it('When the wallet page was refused, then the page says Flouci could not be reached and nothing was charged, without a link', () => {
      const html = renderCheckoutPage({ page: 'bank-refused', language: 'en', wallet: 'flouci' });
      assert.equal(html, renderWalletRefusedPage(pageTranslator('en')));
      assert.match(html, /<h1>Flouci could not be reached<\/h1>/);
      assert.match(html, /nothing has been charged/);
      assert.doesNotMatch(html, /<a |<form|<script|https?:/);
    });
  });
});
