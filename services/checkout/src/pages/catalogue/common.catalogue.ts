/** Words every hosted page may use: the page title, the error prefix, the test-mode tag, the items caption. */
import { defineCatalogue } from '@gateway/i18n';

export const commonCatalogue = defineCatalogue('checkout pages', {
  en: {
    pay_title: 'Pay {merchant}',
    error_prefix: 'Error: ',
    test_tag: 'Test mode: no real money moved.',
    items_caption: 'Items',
  },
  fr: {
    pay_title: 'Paiement à {merchant}',
    error_prefix: 'Erreur\u00a0: ',
    test_tag: "Mode test\u00a0: aucune somme réelle n'a été débitée.",
    items_caption: 'Articles',
  },
  ar: {
    pay_title: 'الدفع لفائدة {merchant}',
    error_prefix: 'خطأ: ',
    test_tag: 'وضع الاختبار: لم تُنقل أي أموال حقيقية.',
    items_caption: 'المشتريات',
  },
});
