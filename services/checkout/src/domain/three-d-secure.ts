/**
 * The buyer back from 3-D Secure (D30) at the attempt's own address,
 * `/checkout/<token>/3ds/<attempt id>`: the issuer's ACS posts its answer
 * there (PaRes and MD for 3-D Secure 1, cres for 3-D Secure 2), the acquirer
 * sends the browser there by GET after a flow it finished itself, and the
 * page's own 3DS Method form posts to `<…>/method`. Each has the session
 * finish the attempt with the adapter, which confirms the outcome with the
 * acquirer: what the browser brings proves nothing by itself. The buyer may
 * have spent the checkout link's last minutes at the bank, so a payment under
 * way finishes within the return grace all the same.
 */
import type { ThreeDSReturn } from '@gateway/contracts';
import { isLanguage } from '@gateway/i18n';
import { AppError } from '@gateway/problem';
import type { CheckoutLinkRef } from './checkout-link-verifier.js';
import { buyerLanguage, expired, toResult, type Answer } from './page-answers.js';
import { afterPaymentStep, paymentStep, type FlowDeps } from './payment-steps.js';

/** An attempt id as the page makes them (newId('pa')); anything else names no attempt. */
const ATTEMPT_ID = /^pa_[0-9A-Za-z]{20,64}$/;

/** Whether `id` is the form of an attempt id: the routes answer anything else as an unknown page. */
export function isAttemptId(id: string): boolean {
  return ATTEMPT_ID.test(id);
}

/**
 * The issuer's ACS posted its answer: cres (3-D Secure 2), or PaRes with the
 * MD the page sent, which must name this attempt (3-D Secure 1). An answer
 * that is neither, or names another attempt, finishes nothing: the result
 * page shows where the payment stands.
 */
export async function returnFromBank(deps: FlowDeps, token: string, attemptId: string, form: Record<string, unknown>, acceptLanguage?: string): Promise<Answer> {
  const link = deps.checkoutLinks.verify(token, deps.clock(), deps.paymentReturnGraceSeconds);
  if (!link) return expired(acceptLanguage, 'expired');
  const returned = bankAnswer(form, attemptId);
  if (!returned) {
    deps.log.warn({ attemptId }, 'a 3-D Secure return without an answer for this attempt; nothing finished');
    return toResult(token);
  }
  return finish(deps, link, token, attemptId, returned, acceptLanguage);
}

/** The acquirer sent the browser back by GET (register.do's returnUrl): it may have finished the order itself, and its status tells. */
export async function returnByGet(deps: FlowDeps, token: string, attemptId: string, acceptLanguage?: string): Promise<Answer> {
  const link = deps.checkoutLinks.verify(token, deps.clock(), deps.paymentReturnGraceSeconds);
  if (!link) return expired(acceptLanguage, 'expired');
  return finish(deps, link, token, attemptId, { kind: 'return' }, acceptLanguage);
}

/**
 * The page's 3DS Method form: the hidden frame loaded (`completed` true) or
 * its time passed first. The card goes to the acquirer again; the answer
 * may be the issuer's challenge, an outcome, or pending.
 */
export async function continueAfterMethod(deps: FlowDeps, token: string, attemptId: string, form: Record<string, unknown>, acceptLanguage?: string): Promise<Answer> {
  const link = deps.checkoutLinks.verify(token, deps.clock(), deps.paymentReturnGraceSeconds);
  if (!link) return expired(acceptLanguage, 'expired');
  const language = isLanguage(form.language) ? form.language : undefined;
  return finish(deps, link, token, attemptId, { kind: 'method', completed: form.completed === 'true' }, acceptLanguage, language);
}

/**
 * The return address of attempts started before each attempt had its own
 * (`/checkout/<token>/3ds`, the attempt in MD): a buyer who was at the bank
 * when the page changed still finishes the payment.
 */
export async function returnFromChallenge(deps: FlowDeps, token: string, form: Record<string, unknown>, acceptLanguage?: string): Promise<Answer> {
  const attemptId = typeof form.MD === 'string' ? form.MD : '';
  if (!isAttemptId(attemptId)) {
    const link = deps.checkoutLinks.verify(token, deps.clock(), deps.paymentReturnGraceSeconds);
    return link ? toResult(token) : expired(acceptLanguage, 'expired');
  }
  return returnFromBank(deps, token, attemptId, form, acceptLanguage);
}

/** What the ACS brought back for `attemptId`, as the adapter takes it; undefined when it brought nothing for this attempt. */
function bankAnswer(form: Record<string, unknown>, attemptId: string): ThreeDSReturn | undefined {
  if (typeof form.cres === 'string' && form.cres !== '') return { kind: 'cres', cres: form.cres };
  if (typeof form.PaRes === 'string' && form.PaRes !== '' && form.MD === attemptId) return { kind: 'pa_res', pa_res: form.PaRes };
  return undefined;
}

/**
 * Has the session finish the attempt with what the browser brought, then
 * shows what follows. An attempt that is not this checkout link's, or no
 * longer waits for the buyer, finishes nothing: the result page shows where
 * things stand (a replayed cres included: the payment is made once).
 */
async function finish(
  deps: FlowDeps,
  link: CheckoutLinkRef,
  token: string,
  attemptId: string,
  returned: ThreeDSReturn,
  acceptLanguage: string | undefined,
  pageLanguage = buyerLanguage(undefined, acceptLanguage),
): Promise<Answer> {
  try {
    const step = await paymentStep(deps, () => deps.call('attempt.finish_3ds', { ...link, attempt_id: attemptId, returned }, deps.paymentTimeoutMs));
    await deps.slots.afterStep(link.session_id, attemptId, step);
    return await afterPaymentStep(deps, { link, token, attemptId, language: pageLanguage, acceptLanguage }, step);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    deps.log.info({ attemptId, returned: returned.kind, reason: err.code }, 'a 3-D Secure return finished nothing; the result page shows where the payment stands');
    return toResult(token);
  }
}
