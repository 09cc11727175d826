/**
 * Wallet payments (D26, WALLET.md): payment.start_wallet records the
 * attempt's order, starts the payment at the wallet (Flouci's
 * generate_payment, pre_auth for a manual session) and answers the wallet's
 * page for the buyer; payment.verify asks the wallet where the payment stands
 * (verify_payment, the only proof) and records the outcome once, whoever asks
 * first: the buyer's return, the wallet's notice, or the sweep. Neither the
 * return nor the notice is trusted for anything but a reason to ask.
 */
import type { CommandRequest, PaymentStep } from '@gateway/contracts';
import { AppError } from '@gateway/problem';
import { recordOrder, registerOrder } from './authorize-payment.js';
import { returnedByBrowser } from './browser-return.js';
import type { AdapterDeps } from './deps.js';
import { finishedStep } from './finish-order.js';

/** What an attempt paid with a wallet shows for its card: the wallet's name, and no digits (D26). */
const WALLET_BRAND = 'flouci';

/** payment.start_wallet: the wallet's page for the buyer, once per attempt; a repeat answers where the order stands. */
export async function startWalletPayment(deps: AdapterDeps, request: CommandRequest<'payment.start_wallet'>, correlationId: string): Promise<PaymentStep> {
  const { attempt } = request;
  const order = await recordOrder(deps, attempt, WALLET_BRAND, '', request.wallet);
  if (!order.fresh) return finishedStep(order.row);
  const started = await registerOrder(
    deps,
    order.row,
    {
      returnUrl: request.return_url,
      language: request.language ?? 'fr',
      description: attempt.description || attempt.order_number,
      wallet: {
        trackingId: attempt.attempt_id,
        successUrl: request.return_url,
        failUrl: request.return_url,
        webhookUrl: request.webhook_url,
        timeoutSeconds: deps.wallet.timeoutSeconds,
      },
    },
    correlationId,
  );
  if (!started.ok) return started.step;
  if (started.redirectUrl === undefined) throw new Error('a wallet payment started without a page for the buyer');
  // From now on only the wallet's word ends it: the buyer's return, its notice or the sweep verify it.
  await deps.orders.mark(attempt.attempt_id, 'REDIRECTED', started.orderId);
  deps.log.info({ attemptId: attempt.attempt_id, wallet: request.wallet }, 'wallet payment started; buyer sent to the wallet');
  return { outcome: 'redirect', redirect: { url: started.redirectUrl } };
}

/** Questions to the wallet under way here, by attempt: a return and a notice arriving together share one. */
const verifying = new Map<string, Promise<PaymentStep>>();

/**
 * payment.verify: the wallet's word on the attempt's payment, recorded once.
 * An attempt that is not a wallet payment, or not of the session named, is
 * not found: a notice or a return for it proves nothing and asks nothing. A
 * final payment never asks again, and questions arriving together (the
 * buyer's return and Flouci's notice, sent at once) share one.
 */
export async function verifyWalletPayment(deps: AdapterDeps, request: CommandRequest<'payment.verify'>, correlationId: string): Promise<PaymentStep> {
  const order = await deps.orders.find(request.attempt_id);
  if (!order || order.payment_method_type === 'card' || (request.session_id !== undefined && order.session_id !== request.session_id)) {
    throw new AppError('not-found', 'No wallet payment with this id.');
  }
  const attemptId = order.attempt_id;
  const under = verifying.get(attemptId);
  if (under) return under;
  const asking = returnedByBrowser(deps, order, correlationId).finally(() => verifying.delete(attemptId));
  verifying.set(attemptId, asking);
  return asking;
}
