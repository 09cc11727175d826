/**
 * A payment step as the hosted page runs it: what the steps need, the start
 * of an attempt (a payment link's slot, D19), the call to the session service
 * (no answer in time is a pending outcome), and what the buyer is shown after
 * it: the issuer's 3DS Method or ACS (D30), or where the session now stands.
 */
import type { CardSealer } from '@gateway/card-sealing';
import type { CheckoutStep, CheckoutView, CommandReply, CommandRequest, CommandType } from '@gateway/contracts';
import type { Language } from '@gateway/i18n';
import { RpcTimeoutError } from '@gateway/messaging';
import type { Logger } from '@gateway/observability';
import { AppError, unlessNotFound } from '@gateway/problem';
import { formTarget } from './bank-forms.js';
import type { CheckoutLinkRef, CheckoutLinkVerifier } from './checkout-link-verifier.js';
import { afterStep, expired, toResult, type Answer } from './page-answers.js';
import type { PaymentLinkSlots } from './payment-link-slots.js';

export interface FlowDeps {
  checkoutLinks: CheckoutLinkVerifier;
  /** The slots of payment links that may be paid only so many times (D19): an attempt on one of their sessions needs one. */
  slots: PaymentLinkSlots;
  cards: CardSealer;
  call: <C extends CommandType>(type: C, data: CommandRequest<C>, timeoutMs?: number) => Promise<CommandReply<C>>;
  publicBaseUrl: string;
  /** The test sandbox's public URL: the one origin besides https: ones a test-mode buyer's browser is handed to (D30). */
  sandboxPublicUrl: string;
  /** How long the 3DS Method frame may take before the page goes on without it. */
  threeDSMethodWaitMs: number;
  paymentTimeoutMs: number;
  /** How long after its checkout link lapsed a payment under way may come back from 3-D Secure or the wallet (D26) and show its result. */
  paymentReturnGraceSeconds: number;
  clock: () => Date;
  log: Logger;
}

/** The session as the checkout link sees it; undefined when there is none. */
export async function viewOf(deps: FlowDeps, link: CheckoutLinkRef): Promise<CheckoutView | undefined> {
  return unlessNotFound(deps.call('checkout.view', link));
}

/** Runs a payment step; no answer in time means the outcome is pending, shown as processing. */
export async function paymentStep(deps: FlowDeps, step: () => Promise<CheckoutStep>): Promise<CheckoutStep> {
  try {
    return await step();
  } catch (err) {
    if (err instanceof RpcTimeoutError) {
      deps.log.warn('payment step unanswered in time; shown as processing');
      return { outcome: 'pending' };
    }
    throw err;
  }
}

/** The attempt a payment step was for, as the page names it. */
export interface StepContext {
  link: CheckoutLinkRef;
  token: string;
  attemptId: string;
  language: Language;
  acceptLanguage: string | undefined;
}

/** An attempt about to start: the step's context and the payment link (D19) the checkout link's token names (null: none; undefined: the token does not say). */
export interface AttemptStart extends StepContext {
  paymentLink: string | null | undefined;
}

/** What the buyer is told when the session's payment link lets no attempt start. */
const SLOT_REFUSALS = { closed: 'payment-link-closed', used: 'payment-link-used', held: 'payment-link-held' } as const;

/**
 * Starts an attempt by card or wallet with `call` (attempt.pay,
 * attempt.pay_wallet). A session of a payment link starts one only while the
 * link is open (D29), and with a slot of a link that may be paid only so
 * many times (D19), given back when the session refuses the attempt. The
 * step the session answered, or what the buyer is shown instead.
 */
export async function startAttempt(deps: FlowDeps, start: AttemptStart, call: () => Promise<CheckoutStep>): Promise<{ step: CheckoutStep } | { answer: Answer }> {
  const slot = await deps.slots.claim(start.link, start.attemptId, start.paymentLink);
  if (!slot.ok) return { answer: { page: 'unavailable', language: start.language, reason: SLOT_REFUSALS[slot.reason] } };
  let step: CheckoutStep;
  try {
    step = await paymentStep(deps, call);
  } catch (err) {
    // Another attempt running, the session closed meanwhile, or its merchant suspended: the result page says which.
    if (err instanceof AppError) {
      await slot.notStarted();
      return { answer: err.code === 'not-found' ? expired(start.acceptLanguage, 'expired') : toResult(start.token) };
    }
    throw err;
  }
  await deps.slots.afterStep(start.link.session_id, start.attemptId, step);
  return { step };
}

/**
 * What the buyer is shown after `step`: the issuer's ACS (a challenge) or its
 * 3DS Method, as a form the browser posts; otherwise where the session stands.
 * A form whose URL the page may not post to is refused: an error page, and
 * the attempt waits for the adapter to give up on it.
 */
export async function afterPaymentStep(deps: FlowDeps, context: StepContext, step: CheckoutStep): Promise<Answer> {
  const form = step.outcome === 'challenge' ? step.challenge : step.outcome === 'method' ? step.method : undefined;
  if (!form) return afterStep(context.token, step, context.acceptLanguage);
  const origin = await allowedOrigin(deps, context.link, form.url, step.session);
  const { language } = context;
  if (origin === undefined) {
    deps.log.error({ attemptId: context.attemptId, step: step.outcome, scheme: schemeOf(form.url) }, 'the acquirer asked the browser to post to a URL the page refuses; nothing was posted');
    return { page: 'bank-refused', language };
  }
  if (step.outcome === 'challenge') return { page: 'bank', language, form, origin };
  const continueUrl = `/checkout/${context.token}/3ds/${context.attemptId}/method`;
  return { page: 'method', language, form, origin, continueUrl, waitMs: deps.threeDSMethodWaitMs };
}

/**
 * What the page's policy names for `url` when the page may send the browser
 * there (a bank's form, a wallet's page): any https: origin (D30: an
 * issuer's ACS or 3DS Method page may move the buyer on to another https:
 * origin of its own, which a policy naming one origin would block), or the
 * sandbox's own origin for a test-mode session; undefined when it may not.
 */
export async function allowedOrigin(deps: FlowDeps, link: CheckoutLinkRef, url: string, session: CheckoutView | undefined): Promise<string | undefined> {
  const target = formTarget(url, deps.sandboxPublicUrl);
  if (!target) return undefined;
  if (!target.testModeOnly) return 'https:';
  // Only the sandbox's plain http: origin needs the session's mode: one look, in test setups alone.
  const livemode = (session ?? (await viewOf(deps, link)))?.livemode;
  return livemode === false ? target.origin : undefined;
}

/** The scheme of a refused URL, for the log (the URL itself may carry anything). */
export function schemeOf(url: string): string {
  return /^[a-z][a-z0-9+.-]*:/i.exec(url)?.[0] ?? 'none';
}
