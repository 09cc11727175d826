/** Exchange rates: the rates of the mode in view, set and removed. */
import { defineCatalogue } from '@gateway/i18n';

export const EXCHANGE_RATE_TEXTS = defineCatalogue('exchange rates', {
  en: {
    rate: 'Rate',
    remove_rate_confirm: 'Remove this rate? New sessions in this currency will be refused.',
    no_rates: 'No rates: sessions can be created in TND only.',
    rates_note: 'A rate is the TND value of one unit, up to six decimals. Sessions already created keep the rate they were made with.',
    rate_saved: '1 {currency} = {rate} TND.',
    rate_removed: '{currency} removed.',
  },
  fr: {
    rate: 'Taux',
    remove_rate_confirm: 'Supprimer ce taux ? Les nouvelles sessions dans cette devise seront refusées.',
    no_rates: "Aucun taux : les sessions ne peuvent être créées qu'en TND.",
    rates_note:
      "Un taux est la valeur en TND d'une unité, avec au plus six décimales. Les sessions déjà créées gardent le taux avec lequel elles ont été créées.",
    rate_saved: '1 {currency} = {rate} TND.',
    rate_removed: '{currency} supprimée.',
  },
  ar: {
    rate: 'السعر',
    remove_rate_confirm: 'هل تريد حذف هذا السعر؟ ستُرفض الجلسات الجديدة بهذه العملة.',
    no_rates: 'لا توجد أسعار: لا يمكن إنشاء الجلسات إلا بالدينار التونسي (TND).',
    rates_note: 'السعر هو قيمة وحدة واحدة من العملة بالدينار التونسي (TND)، بستة أرقام عشرية على الأكثر. تحتفظ الجلسات المُنشأة سابقًا بالسعر الذي أُنشئت به.',
    // The equation is one left-to-right run (U+2066 … U+2069) inside the sentence.
    rate_saved: 'تم حفظ السعر: \u20661 {currency} = {rate} TND\u2069.',
    rate_removed: 'تم حذف {currency}.',
  },
});
