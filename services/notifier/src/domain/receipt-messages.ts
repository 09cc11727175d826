/** The receipts' wording in the buyer's languages (D18, D20); {placeholders} are filled (and escaped in HTML) by the templates. */
import type { Language } from '@gateway/i18n';

export interface ReceiptMessages {
  paymentSubject: string;
  refundSubject: string;
  greeting: string;
  greetingNoName: string;
  paymentIntro: string;
  refundIntro: string;
  amountPaid: string;
  amountRefunded: string;
  originalAmount: string;
  orderNumber: string;
  card: string;
  date: string;
  footer: string;
}

const fr: ReceiptMessages = {
  paymentSubject: 'Votre reçu {merchant} — commande {order}',
  refundSubject: 'Votre remboursement {merchant} — commande {order}',
  greeting: 'Bonjour {name},',
  greetingNoName: 'Bonjour,',
  paymentIntro: 'Votre paiement à {merchant} a été accepté.',
  refundIntro: '{merchant} vous a remboursé une partie ou la totalité de votre paiement.',
  amountPaid: 'Montant payé',
  amountRefunded: 'Montant remboursé',
  originalAmount: 'Montant d’origine',
  orderNumber: 'Numéro de commande',
  card: 'Carte',
  date: 'Date',
  footer: 'Ce message est envoyé automatiquement ; merci de ne pas y répondre. Pour toute question, contactez {merchant}.',
};

const en: ReceiptMessages = {
  paymentSubject: 'Your receipt from {merchant} — order {order}',
  refundSubject: 'Your refund from {merchant} — order {order}',
  greeting: 'Hello {name},',
  greetingNoName: 'Hello,',
  paymentIntro: 'Your payment to {merchant} was accepted.',
  refundIntro: '{merchant} has refunded some or all of your payment.',
  amountPaid: 'Amount paid',
  amountRefunded: 'Amount refunded',
  originalAmount: 'Original amount',
  orderNumber: 'Order number',
  card: 'Card',
  date: 'Date',
  footer: 'This message is sent automatically; please do not reply. For any question, contact {merchant}.',
};

const ar: ReceiptMessages = {
  paymentSubject: 'إيصالك من {merchant} — الطلب {order}',
  refundSubject: 'استرداد من {merchant} — الطلب {order}',
  greeting: 'مرحبًا {name}،',
  greetingNoName: 'مرحبًا،',
  paymentIntro: 'تم قبول دفعتك إلى {merchant}.',
  refundIntro: 'أعاد إليك {merchant} جزءًا من دفعتك أو كلها.',
  amountPaid: 'المبلغ المدفوع',
  amountRefunded: 'المبلغ المسترد',
  originalAmount: 'المبلغ الأصلي',
  orderNumber: 'رقم الطلب',
  card: 'البطاقة',
  date: 'التاريخ',
  footer: 'أُرسلت هذه الرسالة آليًا؛ يُرجى عدم الرد عليها. لأي سؤال، اتصل بـ {merchant}.',
};

export const RECEIPT_MESSAGES: Readonly<Record<Language, ReceiptMessages>> = { fr, en, ar };

/** `template` with its {placeholders} filled. */
export function fill(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}
