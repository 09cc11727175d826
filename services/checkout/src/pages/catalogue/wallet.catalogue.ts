/** Paying with a wallet (D26, Flouci): the choice beside the card form, and the page that takes the buyer to the wallet. */
import { defineCatalogue } from '@gateway/i18n';

export const walletCatalogue = defineCatalogue('wallet', {
  en: {
    wallets_title: 'Other ways to pay',
    pay_with_flouci: 'Pay with Flouci',
    wallet_redirect_title: 'Redirecting to Flouci',
    wallet_redirect_text: 'You are being taken to Flouci to confirm this payment.',
    wallet_continue_text: 'If nothing happens, select Continue to Flouci.',
    continue_to_flouci: 'Continue to Flouci',
    wallet_refused_title: 'Flouci could not be reached',
    wallet_refused_text: 'We could not take you to Flouci to confirm this payment, and nothing has been charged. Please try again later, pay by card or contact the merchant.',
  },
  fr: {
    wallets_title: 'Autres moyens de paiement',
    pay_with_flouci: 'Payer avec Flouci',
    wallet_redirect_title: 'Redirection vers Flouci',
    wallet_redirect_text: 'Vous allez être redirigé vers Flouci pour confirmer ce paiement.',
    wallet_continue_text: 'Si rien ne se passe, cliquez sur Continuer vers Flouci.',
    continue_to_flouci: 'Continuer vers Flouci',
    wallet_refused_title: 'Flouci est injoignable',
    wallet_refused_text: "Nous n'avons pas pu vous rediriger vers Flouci pour confirmer ce paiement, et aucun montant n'a été débité. Veuillez réessayer plus tard, payer par carte ou contacter le commerçant.",
  },
  ar: {
    wallets_title: 'طرق دفع أخرى',
    pay_with_flouci: 'ادفع عبر Flouci',
    wallet_redirect_title: 'جارٍ تحويلك إلى Flouci',
    wallet_redirect_text: 'يجري تحويلك إلى Flouci لتأكيد عملية الدفع هذه.',
    wallet_continue_text: 'إذا لم يحدث شيء، انقر على «المتابعة إلى Flouci».',
    continue_to_flouci: 'المتابعة إلى Flouci',
    wallet_refused_title: 'تعذّر الاتصال بـ Flouci',
    wallet_refused_text: 'تعذّر تحويلك إلى Flouci لتأكيد عملية الدفع هذه، ولم يُخصم أي مبلغ. يرجى إعادة المحاولة لاحقًا أو الدفع بالبطاقة أو التواصل مع التاجر.',
  },
});
