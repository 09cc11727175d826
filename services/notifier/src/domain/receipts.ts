/**
 * The buyer's receipts (D20): which event asks for one and what it shows.
 * session.succeeded asks for a payment receipt; a refund asks for its receipt
 * once it has succeeded: at refund.created when the acquirer confirmed it, at
 * refund.updated when an operator resolved it as succeeded (D16). Only the
 * card's brand and last four digits, or the wallet paid with (D26: Flouci,
 * which has no card to show); the amount in TND, and the amount the
 * buyer was asked when it was converted. Nothing the buyer typed (D29): no
 * name, the greeting is the same for everyone.
 */
import type { Locale, SessionEventData } from '@gateway/contracts';
import { chooseLanguage, type Language } from '@gateway/i18n';

export type ReceiptKind = 'payment_receipt' | 'refund_receipt';

/** What a receipt shows. */
export interface Receipt {
  kind: ReceiptKind;
  language: Language;
  /** Test mode: marked as a test, saying that no money moved (D29). */
  livemode: boolean;
  merchantName: string;
  orderNumber: string;
  /** TND, a decimal string: what was paid, or what was refunded. */
  amount: string;
  /** What the buyer was asked in another currency, when the amount was converted. */
  original?: { amount: string; currency: string } | undefined;
  card?: { brand: string; lastFour: string } | undefined;
  /** D26: paid with the Flouci wallet, shown in the card's place (such a payment has no card). */
  wallet?: 'flouci' | undefined;
  at: Date;
  /** The merchant's logo and accent colour (D20), when it set them. */
  brand?: ReceiptBrand | undefined;
}

/** A merchant's branding as a receipt shows it: the logo's absolute URL and the accent colour. */
export interface ReceiptBrand {
  logoUrl?: string | undefined;
  accentColor?: string | undefined;
}

/** The receipt's language: the one the event names (D18: the session's, or the page's it was paid on); French, the page's fallback, for `auto`. */
export function receiptLanguage(locale: Locale): Language {
  return chooseLanguage(locale, undefined, 'fr');
}

/** The receipt an event asks for, or undefined when it asks for none (an event without the receipt facts its publisher adds makes none). */
export function receiptOf(type: string | undefined, data: SessionEventData, at: Date): Receipt | undefined {
  const { session, receipt } = data;
  if (!receipt) return undefined;
  const common = {
    language: receiptLanguage(receipt.locale),
    livemode: session.livemode,
    merchantName: receipt.merchant_name,
    orderNumber: session.order_number,
    original: session.original.currency === 'TND' ? undefined : { amount: session.original.amount, currency: session.original.currency },
    ...paidWith(session.payment),
  };
  if (type === 'session.succeeded') {
    return { ...common, kind: 'payment_receipt', amount: session.amount_captured ?? session.amount, at: session.paid_at ? new Date(session.paid_at) : at };
  }
  if ((type === 'refund.created' || type === 'refund.updated') && session.refund?.status === 'succeeded') {
    const refundedAt = session.refund.created_at ? new Date(session.refund.created_at) : at;
    return { ...common, kind: 'refund_receipt', original: undefined, amount: session.refund.amount, at: refundedAt };
  }
  return undefined;
}

/** How the session was paid, as a receipt shows it: the wallet for a Flouci payment (D26), otherwise the card, if any. */
function paidWith(payment: SessionEventData['session']['payment']): Pick<Receipt, 'card' | 'wallet'> {
  if (!payment) return {};
  if (payment.method === 'flouci') return { wallet: 'flouci' };
  return { card: { brand: payment.card_brand, lastFour: payment.card_last_four } };
}
