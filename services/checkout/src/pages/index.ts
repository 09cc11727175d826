/** The hosted checkout pages: pure functions from a view model to an HTML string. */
export type { ItemView, OrderView, PaymentPageView } from './views.js';
export { renderCheckoutPage } from './checkout-page.js';
export { layout, STYLESHEET_PATH, type LayoutOptions } from './layout.js';
export { renderPaymentPage } from './payment-page.js';
export { renderLinkNoticePage, renderLinkPage } from './link-page.js';
export {
  renderChallengePage,
  renderErrorPage,
  renderLinkExpiredPage,
  renderOutcomePage,
  renderProcessingPage,
  renderRedirectPage,
  renderUnavailablePage,
  type ChallengeView,
} from './status-pages.js';
export { CHECKOUT_CSS } from './stylesheet.js';
export {
  CATALOGUES,
  directionOf,
  formatAmount,
  translate,
  type Language,
  type MessageKey,
  type Messages,
} from './messages/index.js';
