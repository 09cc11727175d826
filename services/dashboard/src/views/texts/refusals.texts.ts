/** Refusals that arrive as English data (a problem's detail from this service or another) and are shown in the page's language through `t.known`. */
import { defineCatalogue } from '@gateway/i18n';

export const REFUSAL_TEXTS = defineCatalogue('refusals', {
  en: {
    form_expired: 'This form has expired or did not come from this site. Reload the page and try again.',
    form_from_elsewhere: 'This form did not come from this site.',
    session_ended: 'Your session has ended. Sign in again.',
    request_invalid: 'The request failed validation; see errors for each field.',
    choose_mode: 'Choose test or live mode.',
    merchant_suspended: 'This merchant account is suspended.',
    exports_busy: 'Too many exports are running at once for this account and mode. Try again shortly.',
    currency_without_rate: 'No exchange rate is configured for {currency}; request in TND or configure a rate.',
  },
  fr: {
    form_expired: 'Ce formulaire a expiré ou ne vient pas de ce site. Rechargez la page et réessayez.',
    form_from_elsewhere: 'Ce formulaire ne vient pas de ce site.',
    session_ended: 'Votre session est terminée. Reconnectez-vous.',
    request_invalid: 'La demande est invalide ; voyez les erreurs de chaque champ.',
    choose_mode: 'Choisissez le mode test ou live.',
    merchant_suspended: 'Ce compte marchand est suspendu.',
    exports_busy: 'Trop d’exports sont en cours en même temps pour ce compte et ce mode. Réessayez dans un instant.',
    currency_without_rate: 'Aucun taux de change n’est configuré pour {currency} ; demandez en TND ou configurez un taux.',
  },
  ar: {
    form_expired: 'انتهت صلاحية هذا النموذج أو لم يصدر عن هذا الموقع. أعد تحميل الصفحة وحاول مجددًا.',
    form_from_elsewhere: 'لم يصدر هذا النموذج عن هذا الموقع.',
    session_ended: 'انتهت جلستك. سجّل الدخول مجددًا.',
    request_invalid: 'الطلب غير صالح؛ راجع أخطاء كل حقل.',
    choose_mode: 'اختر وضع الاختبار أو الوضع الفعلي.',
    merchant_suspended: 'حساب هذا التاجر معلّق.',
    exports_busy: 'عدد عمليات التصدير الجارية في الوقت نفسه لهذا الحساب وهذا الوضع كبير جدًا. حاول مجددًا بعد قليل.',
    currency_without_rate: 'لا يوجد سعر صرف مضبوط للعملة {currency}؛ اطلب بالدينار التونسي أو اضبط سعرًا.',
  },
});
