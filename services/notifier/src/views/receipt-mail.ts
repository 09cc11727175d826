/**
 * A buyer's receipt as a mail (D20): subject (merchant name and order number),
 * a plain-text part and an HTML part (right to left in Arabic), in the
 * receipt's language; the amounts and the date in Tunis time as that language
 * writes them. Every value in the HTML is escaped; a name shows no card number.
 * No buyer is named (what they typed could be anything); a test-mode receipt
 * is marked as one (D29).
 */
import { formatAmount, formatTunisDateTime } from '@gateway/i18n';
import { headerText, shownText } from '../domain/header-safety.js';
import type { RenderedMail } from '../domain/queued-mail.js';
import type { Receipt } from '../domain/receipts.js';
import { mailTranslator, type MailTranslate } from './catalogue/index.js';
import { renderMail } from './mail-layout.js';

/** The wallet's own name (D26), written the same in every language. */
const FLOUCI = 'Flouci';

/** The rows of the receipt's table, label and value, in reading order. */
function rows(t: MailTranslate, receipt: Receipt): Array<[string, string]> {
  const out: Array<[string, string]> = [[t(receipt.kind === 'payment_receipt' ? 'receipt_amount_paid' : 'receipt_amount_refunded'), formatAmount(receipt.amount, 'TND', t.language)]];
  if (receipt.original && receipt.original.currency !== 'TND') out.push([t('receipt_original_amount'), formatAmount(receipt.original.amount, receipt.original.currency, t.language)]);
  out.push([t('receipt_order_number'), receipt.orderNumber]);
  if (receipt.card && /^\d{4}$/.test(receipt.card.lastFour)) out.push([t('receipt_card'), `${headerText(receipt.card.brand, 20).toUpperCase()} •••• ${receipt.card.lastFour}`]);
  if (receipt.wallet === 'flouci') out.push([t('receipt_payment_method'), FLOUCI]);
  out.push([t('receipt_date'), formatTunisDateTime(receipt.at, t.language)]);
  return out;
}

/** The mail of `receipt`. */
export function renderReceipt(receipt: Receipt): RenderedMail {
  const t = mailTranslator(receipt.language);
  const merchant = shownText(receipt.merchantName);
  const values = { merchant, order: headerText(receipt.orderNumber, 40) };
  const payment = receipt.kind === 'payment_receipt';
  const subject = headerText(t(payment ? 'receipt_payment_subject' : 'receipt_refund_subject', values), 250);
  const intro = t(payment ? 'receipt_payment_intro' : 'receipt_refund_intro', values);
  const footer = t('receipt_footer', values);
  const brand = receipt.brand && {
    ...(receipt.brand.logoUrl !== undefined && { logo: { url: receipt.brand.logoUrl, alt: merchant } }),
    ...(receipt.brand.accentColor !== undefined && { accentColor: receipt.brand.accentColor }),
  };
  return renderMail({
    language: receipt.language,
    subject,
    ...(!receipt.livemode && { testNotice: t('receipt_test_notice') }),
    paragraphs: [t('greeting'), intro],
    rows: rows(t, receipt),
    footer,
    ...(brand && { brand }),
  });
}
