/** The hosted checkout pages: pure functions from a view model and the words of the page's language to an HTML string. */
export type { OrderView, PaymentPageView } from './views.js';
export { CHECKOUT_CATALOGUE, pageTranslator } from './catalogue/index.js';
export { renderBankPage, renderBankRefusedPage, renderMethodPage } from './bank-pages.js';
export { renderCheckoutPage } from './checkout-page.js';
export { HAND_OFF_SCRIPT, HAND_OFF_SCRIPT_PATH } from './hand-off-script.js';
export { STYLESHEET_PATH } from './layout.js';
export { renderPaymentPage } from './payment-page.js';
export { renderPaymentLinkNoticePage, renderPaymentLinkPage } from './payment-link-page.js';
export {
  renderCheckoutLinkExpiredPage,
  renderErrorPage,
  renderOutcomePage,
  renderProcessingPage,
  renderRedirectPage,
  renderUnavailablePage,
} from './status-pages.js';
export { CHECKOUT_CSS } from './stylesheet.js';
export { renderWalletPage, renderWalletRefusedPage } from './wallet-page.js';
