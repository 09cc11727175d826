/**
 * The buyer's receipts (D20): what a payment or a refund event says, as a
 * mail in the session's language, with a plain-text part and an HTML part
 * (right to left in Arabic). Only the card's brand and last four digits; the
 * amount in TND, and the amount the buyer was asked when it was converted;
 * the date in Tunis time. Every value in the HTML is escaped.
 */
import type { Locale } from '@gateway/contracts';
import { formatAmount, type Language } from '@gateway/i18n';
import { headerText, withoutCardNumbers } from './header-safety.js';
import { renderMail, type RenderedMail } from './mail-layout.js';
import { fill, RECEIPT_MESSAGES, type ReceiptMessages } from './receipt-messages.js';

export type ReceiptKind = 'payment_receipt' | 'refund_receipt';

/** What a receipt shows. */
export interface Receipt {
  kind: ReceiptKind;
  language: Language;
  merchantName: string;
  buyerName: string;
  orderNumber: string;
  /** TND, a decimal string: what was paid, or what was refunded. */
  amount: string;
  /** What the buyer was asked in another currency, when the amount was converted. */
  original?: { amount: string; currency: string } | undefined;
  card?: { brand: string; lastFour: string } | undefined;
  at: Date;
  /** The merchant's logo and accent colour (D20), when it set them. */
  brand?: ReceiptBrand | undefined;
}

/** A merchant's branding as a receipt shows it: the logo's absolute URL and the accent colour. */
export interface ReceiptBrand {
  logoUrl?: string | undefined;
  accentColor?: string | undefined;
}

export type { RenderedMail } from './mail-layout.js';

/** The receipt's language: the one the event names (D18: the session's, or the page's it was paid on); French, the page's fallback, for `auto`. */
export function receiptLanguage(locale: Locale): Language {
  return locale === 'en' || locale === 'ar' ? locale : 'fr';
}

const DATE_LOCALES: Readonly<Record<Language, string>> = { fr: 'fr-TN', en: 'en-TN', ar: 'ar-TN' };

/** `at` as a Tunisian reader of `language` reads a date and time (24-hour clock), in Tunis time. */
export function tunisDateTime(at: Date, language: Language): string {
  return new Intl.DateTimeFormat(DATE_LOCALES[language], { timeZone: 'Africa/Tunis', dateStyle: 'long', timeStyle: 'short', hourCycle: 'h23', numberingSystem: 'latn' }).format(at);
}

/** The rows of the receipt's table, label and value, in reading order. */
function rows(receipt: Receipt, m: ReceiptMessages): Array<[string, string]> {
  const out: Array<[string, string]> = [[receipt.kind === 'payment_receipt' ? m.amountPaid : m.amountRefunded, formatAmount(receipt.amount, 'TND', receipt.language)]];
  if (receipt.original && receipt.original.currency !== 'TND') out.push([m.originalAmount, formatAmount(receipt.original.amount, receipt.original.currency, receipt.language)]);
  out.push([m.orderNumber, receipt.orderNumber]);
  if (receipt.card && /^\d{4}$/.test(receipt.card.lastFour)) out.push([m.card, `${headerText(receipt.card.brand, 20).toUpperCase()} •••• ${receipt.card.lastFour}`]);
  out.push([m.date, tunisDateTime(receipt.at, receipt.language)]);
  return out;
}

/** The mail of `receipt`: subject (merchant name and order number), plain text and HTML. */
export function renderReceipt(receipt: Receipt): RenderedMail {
  const m = RECEIPT_MESSAGES[receipt.language];
  const merchant = withoutCardNumbers(headerText(receipt.merchantName, 100));
  const name = withoutCardNumbers(headerText(receipt.buyerName, 100));
  const values = { merchant, order: headerText(receipt.orderNumber, 40), name };
  const subject = headerText(fill(receipt.kind === 'payment_receipt' ? m.paymentSubject : m.refundSubject, values), 250);
  const greeting = name === '' ? m.greetingNoName : fill(m.greeting, values);
  const intro = fill(receipt.kind === 'payment_receipt' ? m.paymentIntro : m.refundIntro, values);
  const footer = fill(m.footer, values);
  const table = rows(receipt, m);
  const brand = receipt.brand && {
    ...(receipt.brand.logoUrl !== undefined && { logo: { url: receipt.brand.logoUrl, alt: merchant } }),
    ...(receipt.brand.accentColor !== undefined && { accentColor: receipt.brand.accentColor }),
  };
  return renderMail({ language: receipt.language, subject, paragraphs: [greeting, intro], rows: table, footer, ...(brand && { brand }) });
}
