/** The pages that hand the buyer to their bank for 3-D Secure (D30): the ACS hand-off, the 3DS Method check, and a bank page the page will not open. */
import { defineCatalogue } from '@gateway/i18n';

export const bankPagesCatalogue = defineCatalogue('bank pages', {
  en: {
    redirect_bank: 'Redirecting to your bank',
    bank_text: 'Your bank asks you to confirm this payment.',
    method_title: 'Checking your card',
    method_text: 'We are checking your card with your bank. This takes a few seconds.',
    bank_refused_title: 'Your bank could not be reached',
    bank_refused_text: 'We could not take you to your bank to confirm this payment, and your card has not been charged. Please try again later or contact the merchant.',
  },
  fr: {
    redirect_bank: 'Redirection vers votre banque',
    bank_text: 'Votre banque vous demande de confirmer ce paiement.',
    method_title: 'Vérification de votre carte',
    method_text: 'Nous vérifions votre carte auprès de votre banque. Cela ne prend que quelques secondes.',
    bank_refused_title: 'Votre banque est injoignable',
    bank_refused_text: "Nous n'avons pas pu vous rediriger vers votre banque pour confirmer ce paiement, et votre carte n'a pas été débitée. Veuillez réessayer plus tard ou contacter le commerçant.",
  },
  ar: {
    redirect_bank: 'جارٍ تحويلك إلى مصرفك',
    bank_text: 'يطلب منك مصرفك تأكيد عملية الدفع هذه.',
    method_title: 'جارٍ التحقق من بطاقتك',
    method_text: 'نتحقق من بطاقتك لدى مصرفك. لن يستغرق ذلك سوى بضع ثوانٍ.',
    bank_refused_title: 'تعذّر الاتصال بمصرفك',
    bank_refused_text: 'تعذّر تحويلك إلى مصرفك لتأكيد عملية الدفع هذه، ولم يُخصم أي مبلغ من بطاقتك. يرجى إعادة المحاولة لاحقًا أو التواصل مع التاجر.',
  },
});
