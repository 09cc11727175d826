/**
 * A payment step as the hosted page runs it: what the steps need, the call
 * to the session service (no answer in time is a pending outcome), and what
 * the buyer is shown after it: the issuer's 3DS Method or ACS (D30), or where
 * the session now stands.
 */
import type { CardSealer } from '@gateway/card-sealing';
import type { BrowserForm, CheckoutStep, CheckoutView, CommandReply, CommandRequest, CommandType } from '@gateway/contracts';
import type { Language } from '@gateway/i18n';
import { RpcTimeoutError } from '@gateway/messaging';
import type { Logger } from '@gateway/observability';
import { unlessNotFound } from '@gateway/problem';
import { formTarget } from './bank-forms.js';
import type { CheckoutLinkRef, CheckoutLinkVerifier } from './checkout-link-verifier.js';
import { afterStep, type Answer } from './page-answers.js';
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
  /** How long after its checkout link lapsed a payment under way may come back from 3-D Secure and show its result. */
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

/**
 * What the buyer is shown after `step`: the issuer's ACS (a challenge) or its
 * 3DS Method, as a form the browser posts; otherwise where the session stands.
 * A form whose URL the page may not post to is refused: an error page, and
 * the attempt waits for the adapter to give up on it.
 */
export async function afterPaymentStep(deps: FlowDeps, context: StepContext, step: CheckoutStep): Promise<Answer> {
  const form = step.outcome === 'challenge' ? step.challenge : step.outcome === 'method' ? step.method : undefined;
  if (!form) return afterStep(context.token, step, context.acceptLanguage);
  const origin = await allowedOrigin(deps, context.link, form, step.session);
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
 * What the page's policy names for `form` when the page may post there: any
 * https: origin (D30: an issuer's ACS or 3DS Method page may move the buyer on
 * to another https: origin of its own, which a policy naming one origin would
 * block), or the sandbox's own origin for a test-mode session.
 */
async function allowedOrigin(deps: FlowDeps, link: CheckoutLinkRef, form: BrowserForm, session: CheckoutView | undefined): Promise<string | undefined> {
  const target = formTarget(form.url, deps.sandboxPublicUrl);
  if (!target) return undefined;
  if (!target.testModeOnly) return 'https:';
  // Only the sandbox's plain http: origin needs the session's mode: one look, in test setups alone.
  const livemode = (session ?? (await viewOf(deps, link)))?.livemode;
  return livemode === false ? target.origin : undefined;
}

/** The scheme of a refused URL, for the log (the URL itself may carry anything). */
function schemeOf(url: string): string {
  return /^[a-z][a-z0-9+.-]*:/i.exec(url)?.[0] ?? 'none';
}
