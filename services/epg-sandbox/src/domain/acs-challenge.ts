/**
 * The issuer's 3-D Secure page, as the sandbox plays it. The browser posts
 * the challenge (3-D Secure 1: PaReq, MD and TermUrl; 3-D Secure 2: creq);
 * the page offers both answers as a signed decision; the chosen answer goes
 * back to the merchant as a form the browser posts: PaRes and MD to TermUrl,
 * or cres to threeDSVer2FinishUrl (three-ds2.ts).
 */
import { accountCurrency, fromMinorUnits } from '@gateway/money';
import { OrderStatus, type Order } from './order.js';
import type { Sandbox } from './sandbox.js';
import { answerChallenge, challengedOrder } from './three-ds2.js';
import { isWebUrl } from './urls.js';

/** What the browser posted to the ACS. */
export interface AcsRequest {
  readonly paReq: string | undefined;
  readonly md: string | undefined;
  readonly termUrl: string | undefined;
  readonly creq: string | undefined;
}

export interface AcsChallenge {
  readonly orderId: string;
  readonly protocol: '3-D Secure 1' | '3-D Secure 2';
  /** "125.500" */
  readonly amountTnd: string;
  readonly maskedPan: string;
  /** The language register.do asked for: the sandbox page shows it rather than speaking it, so a test sees what reached the acquirer. */
  readonly language: string;
  /** 3-D Secure 2: whether the buyer's browser ran the 3DS Method first. */
  readonly methodRan?: boolean;
  /** The signed decision both answers post back to the ACS. */
  readonly decision: string;
}

/** A form the browser posts to the merchant, as the ACS hands the buyer back. */
export interface AcsReturn {
  readonly url: string;
  readonly fields: Readonly<Record<string, string>>;
}

/** The challenge to show, or undefined when the request is not a valid one. */
export function openChallenge(sandbox: Sandbox, request: AcsRequest): AcsChallenge | undefined {
  if (request.creq !== undefined) {
    const order = challengedOrder(sandbox, request.creq);
    if (!order) return undefined;
    return { ...shown(order), protocol: '3-D Secure 2', methodRan: order.threeDS2?.methodRan ?? false, decision: sandbox.tokens.decision(['2', order.orderId]) };
  }
  const { paReq, md, termUrl } = request;
  if (paReq === undefined || termUrl === undefined || !isWebUrl(termUrl)) return undefined;
  const orderId = sandbox.tokens.readPaReq(paReq);
  if (orderId === undefined) return undefined;
  // The browser is not a terminal: the signed paReq alone names the order.
  const order = sandbox.store.byIdAnyTerminal(orderId);
  if (order?.status !== OrderStatus.AUTHENTICATING || order.threeDS2) return undefined;
  return { ...shown(order), protocol: '3-D Secure 1', decision: sandbox.tokens.decision(['1', orderId, termUrl, md ?? '']) };
}

/**
 * The cardholder's answer (Y or N) to the challenge a decision names, as the
 * form that takes it back to the merchant; undefined when the decision is
 * not ours or its order no longer awaits an answer.
 */
export function answerDecision(sandbox: Sandbox, decision: string | undefined, result: string | undefined): AcsReturn | undefined {
  if (decision === undefined || (result !== 'Y' && result !== 'N')) return undefined;
  const parts = sandbox.tokens.readDecision(decision);
  const order = parts?.[1] === undefined ? undefined : sandbox.store.byIdAnyTerminal(parts[1]);
  if (!parts || !order) return undefined;
  if (parts[0] === '2' && parts.length === 2) {
    const answered = answerChallenge(sandbox, order, result);
    return answered && { url: answered.url, fields: { cres: answered.cres } };
  }
  const [, orderId, termUrl, md] = parts;
  if (parts[0] !== '1' || orderId === undefined || termUrl === undefined || md === undefined) return undefined;
  if (order.status !== OrderStatus.AUTHENTICATING || order.threeDS2) return undefined;
  // Echoed back to TermUrl as the merchant sent it.
  return { url: termUrl, fields: { PaRes: sandbox.tokens.paRes(orderId, result), MD: md } };
}

function shown(order: Order) {
  return {
    orderId: order.orderId,
    amountTnd: fromMinorUnits(String(order.amount), accountCurrency),
    maskedPan: order.card?.maskedPan ?? '',
    language: order.language,
  };
}
