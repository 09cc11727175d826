/** The operations console's own words: who it is for, and the modes as its tables name them. */
import { defineCatalogue } from '@gateway/i18n';

export const OPS_CONSOLE_TEXTS = defineCatalogue('operations console', {
  en: {
    console_for_operators: 'The operations console is for operators.',
    mode_test_word: 'test',
    mode_live_word: 'live',
  },
  fr: {
    console_for_operators: "La console d'exploitation est réservée aux opérateurs.",
    mode_test_word: 'test',
    mode_live_word: 'live',
  },
  ar: {
    console_for_operators: 'وحدة تحكم العمليات مخصّصة للمشغّلين.',
    mode_test_word: 'اختبار',
    mode_live_word: 'فعلي',
  },
});
