/**
 * generate_payment: a new payment awaiting its buyer at `link`, for the
 * calling application. developer_tracking_id is the merchant's own reference,
 * echoed and never checked for uniqueness (as Flouci does). accept_card is
 * read and checked, but the sandbox's page offers the wallet alone.
 */
import { generatedPayment } from './wallet-payment.js';
import { flag, millimes, optionalWebUrl, positiveSeconds, trackingId, webUrl } from './request-fields.js';
import { linkOf, type CallResult, type JsonBody, type Wallet } from './wallet.js';

/** WALLET.md: session_timeout_secs when not given. */
const DEFAULT_SESSION_TIMEOUT_SECS = 1200;
/** A session longer than a day would outlive any buyer: the sandbox's own bound, Flouci does not say. */
const MAX_SESSION_TIMEOUT_SECS = 86_400;

export function generatePayment(wallet: Wallet, app: string, body: JsonBody): CallResult {
  const amount = millimes(body, 'amount');
  const developerTrackingId = trackingId(body, 'developer_tracking_id');
  const successLink = webUrl(body, 'success_link');
  const failLink = webUrl(body, 'fail_link');
  const webhook = optionalWebUrl(body, 'webhook');
  const timeoutSecs = positiveSeconds(body, 'session_timeout_secs', DEFAULT_SESSION_TIMEOUT_SECS, MAX_SESSION_TIMEOUT_SECS);
  flag(body, 'accept_card');
  const preAuth = flag(body, 'pre_auth');

  const generatedAt = wallet.now().getTime();
  const payment = generatedPayment({ app, amount, developerTrackingId, successLink, failLink, webhook, preAuth, generatedAt, expiresAt: generatedAt + timeoutSecs * 1000 });
  wallet.payments.add(payment);
  return { success: true, payment_id: payment.paymentId, link: linkOf(wallet, payment.paymentId), developer_tracking_id: developerTrackingId };
}
