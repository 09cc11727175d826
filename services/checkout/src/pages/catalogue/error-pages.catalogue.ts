/** The pages of a path nobody serves and of a failure. */
import { defineCatalogue } from '@gateway/i18n';

export const errorPagesCatalogue = defineCatalogue('error pages', {
  en: {
    not_found_title: 'Page not found',
    not_found_text: 'Check the payment link you were given.',
    error_title: 'Something went wrong',
    error_text: 'Please try again later.',
  },
  fr: {
    not_found_title: 'Page introuvable',
    not_found_text: 'Vérifiez le lien de paiement qui vous a été communiqué.',
    error_title: 'Une erreur est survenue',
    error_text: 'Veuillez réessayer ultérieurement.',
  },
  ar: {
    not_found_title: 'الصفحة غير موجودة',
    not_found_text: 'يرجى التحقق من رابط الدفع الذي أُرسل إليك.',
    error_title: 'حدث خطأ ما',
    error_text: 'يرجى إعادة المحاولة لاحقًا.',
  },
});
