/**
 * Paying with a wallet from the hosted page (D26, Flouci). "Pay with Flouci"
 * starts an attempt as a card does (the checkout link, a payment link's slot,
 * the page's language); the session has the adapter register the payment at
 * Flouci, and the buyer is handed to Flouci's page. They come back to the
 * attempt's own address, `/checkout/<token>/wallet/<attempt id>`, where the
 * session finishes the attempt with what Flouci's verify_payment says: what
 * the browser brings (Flouci adds its payment_id) proves nothing.
 */
import { newId, type CheckoutStep } from '@gateway/contracts';
import { AppError } from '@gateway/problem';
import { afterStep, expired, formLanguage, toResult, type Answer } from './page-answers.js';
import { pageUrl } from './checkout-flow.js';
import { allowedOrigin, paymentStep, schemeOf, startAttempt, type AttemptStart, type FlowDeps } from './payment-steps.js';

/** The one wallet the page offers (D26). */
const WALLET = 'flouci';

/** "Pay with Flouci" was pressed: an attempt starts, and the buyer is handed to Flouci's page. */
export async function payWithWallet(deps: FlowDeps, token: string, form: Record<string, unknown>, acceptLanguage?: string): Promise<Answer> {
  const verified = deps.checkoutLinks.verifyWithPaymentLink(token, deps.clock());
  if (!verified) return expired(acceptLanguage, 'expired');
  const link = verified.ref;
  const attemptId = newId('pa');
  const language = formLanguage(form, acceptLanguage);
  const start: AttemptStart = { link, paymentLink: verified.paymentLink, token, attemptId, language, acceptLanguage };
  const started = await startAttempt(deps, start, () =>
    deps.call(
      'attempt.pay_wallet',
      {
        ...link,
        attempt_id: attemptId,
        wallet: WALLET,
        // Flouci sends the buyer back here, paid or not, and posts its notice there (a hint the adapter verifies).
        return_url: `${pageUrl(deps, token)}/wallet/${attemptId}`,
        webhook_url: walletNoticeUrl(deps, attemptId),
        language,
      },
      deps.paymentTimeoutMs,
    ),
  );
  return 'answer' in started ? started.answer : handOff(deps, start, started.step);
}

/**
 * The buyer is back from Flouci: the session finishes the attempt with what
 * Flouci's verify_payment says, and the buyer sees where the payment stands.
 * A reload asks again: an attempt no longer waiting for the buyer finishes
 * nothing, and the result page shows the session as it is. The buyer may have
 * spent the checkout link's last minutes at Flouci, so this works within the
 * return grace, as a return from 3-D Secure does.
 */
export async function returnFromWallet(deps: FlowDeps, token: string, attemptId: string, acceptLanguage?: string): Promise<Answer> {
  const link = deps.checkoutLinks.verify(token, deps.clock(), deps.paymentReturnGraceSeconds);
  if (!link) return expired(acceptLanguage, 'expired');
  try {
    const step = await paymentStep(deps, () => deps.call('attempt.finish_wallet', { ...link, attempt_id: attemptId }, deps.paymentTimeoutMs));
    await deps.slots.afterStep(link.session_id, attemptId, step);
    return afterStep(token, step, acceptLanguage);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    deps.log.info({ attemptId, reason: err.code }, 'a wallet return finished nothing; the result page shows where the payment stands');
    return toResult(token);
  }
}

/** Where Flouci posts its notice about `attemptId` (http/wallet-notice.routes). */
function walletNoticeUrl(deps: Pick<FlowDeps, 'publicBaseUrl'>, attemptId: string): string {
  return `${deps.publicBaseUrl}/checkout/wallet-notices/${WALLET}/${attemptId}`;
}

/**
 * After the wallet's payment was started: its page, when the browser may go
 * there (https:, or the sandbox's origin for a test-mode session, as a bank's
 * form); a URL it may not is refused, logged without the URL, and the attempt
 * waits for the adapter to give up on it. Any other step: where the session stands.
 */
async function handOff(deps: FlowDeps, start: AttemptStart, step: CheckoutStep): Promise<Answer> {
  if (step.outcome !== 'redirect') return afterStep(start.token, step, start.acceptLanguage);
  const url = step.redirect?.url ?? '';
  const origin = await allowedOrigin(deps, start.link, url, step.session);
  if (origin === undefined) {
    deps.log.error({ attemptId: start.attemptId, scheme: schemeOf(url) }, "the wallet's page is at a URL the page refuses; the buyer was not sent there");
    return { page: 'bank-refused', language: start.language, wallet: WALLET };
  }
  // As parsed: what was checked is what the browser gets.
  return { page: 'wallet', language: start.language, url: new URL(url).href };
}
