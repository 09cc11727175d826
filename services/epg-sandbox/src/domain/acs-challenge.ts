/**
 * The issuer's 3-D Secure page, as the sandbox plays it: a paReq for an order
 * awaiting authentication becomes a page offering both answers, each a signed
 * paRes the browser posts to the merchant's TermUrl.
 */
import { accountCurrency, fromMinorUnits } from '@gateway/money';
import { OrderStatus } from './order.js';
import type { Sandbox } from './sandbox.js';
import { isWebUrl } from './urls.js';

export interface AcsRequest {
  readonly paReq: string | undefined;
  readonly md: string | undefined;
  readonly termUrl: string | undefined;
}

export interface AcsChallenge {
  readonly orderId: string;
  /** "125.500" */
  readonly amountTnd: string;
  readonly maskedPan: string;
  /** The language register.do asked for: the sandbox page shows it rather than speaking it, so a test sees what reached the acquirer. */
  readonly language: string;
  readonly termUrl: string;
  /** Echoed back to TermUrl as the merchant sent it. */
  readonly md: string;
  readonly paResY: string;
  readonly paResN: string;
}

/** The challenge to show, or undefined when the request is not a valid one. */
export function openChallenge(sandbox: Sandbox, request: AcsRequest): AcsChallenge | undefined {
  const { paReq, md, termUrl } = request;
  if (paReq === undefined || termUrl === undefined || !isWebUrl(termUrl)) return undefined;
  const orderId = sandbox.tokens.readPaReq(paReq);
  if (orderId === undefined) return undefined;
  // The browser is not a terminal: the signed paReq alone names the order.
  const order = sandbox.store.byIdAnyTerminal(orderId);
  if (order?.status !== OrderStatus.AUTHENTICATING || !order.card) return undefined;
  return {
    orderId,
    amountTnd: fromMinorUnits(String(order.amount), accountCurrency),
    maskedPan: order.card.maskedPan,
    language: order.language,
    termUrl,
    md: md ?? '',
    paResY: sandbox.tokens.paRes(orderId, 'Y'),
    paResN: sandbox.tokens.paRes(orderId, 'N'),
  };
}
