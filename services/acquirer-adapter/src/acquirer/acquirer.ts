/**
 * What the adapter needs of an acquirer, whichever it is. Each acquirer is a
 * client plus its transformers behind this interface, so adding one touches
 * one folder. Amounts cross it as TND decimal strings; the client converts.
 */

import type { Card } from '@gateway/card-sealing';
import type { Language, ProbedAnswer } from '@gateway/contracts';

/** Where and as whom to call the acquirer. */
export interface Terminal {
  readonly baseUrl: string;
  readonly userName: string;
  readonly password: string;
}

export interface OrderRequest {
  readonly orderNumber: string;
  readonly amount: string;
  readonly returnUrl: string;
  readonly description: string;
  /** The language of the acquirer's pages the buyer may see (3-D Secure). */
  readonly language: Language;
  /** D22: a two-phase order (registerPreAuth.do), whose approved payment is held until deposited or reversed. */
  readonly twoPhase: boolean;
}

export type RegisterResult =
  | { kind: 'registered'; orderId: string }
  /** The acquirer refused the terminal's credentials. */
  | { kind: 'credentials-rejected'; message: string }
  | { kind: 'refused'; message: string };

export type PayResult =
  | { kind: 'submitted' }
  | { kind: 'challenge'; acsUrl: string; paReq: string }
  | { kind: 'refused'; message: string };

export type OrderState =
  /** Deposited (orderStatus 2): `amount` is what was taken. */
  | { kind: 'paid'; amount: string; maskedPan: string }
  /** Pre-authorised, held (orderStatus 1, a two-phase order): `amount` is what is held. */
  | { kind: 'held'; amount: string; maskedPan: string }
  /** Declined, or reversed (`reversed`: a hold released, or a payment voided). */
  | { kind: 'declined'; failureCode: string; failureMessage: string; reversed?: true }
  /** Registered or in 3-D Secure: no outcome yet. */
  | { kind: 'open' }
  | { kind: 'not-found' };

/**
 * How a reverse, a refund or a deposit ended at the acquirer (ACQUIRER.md,
 * refund outcomes and two-phase orders): `done`; `refused` is definitive,
 * nothing was done; `unconfirmed` (a system error or an answer that says
 * nothing usable) leaves the outcome unknown. `errorCode` is the acquirer's,
 * for the log (-1: none could be read, or no answer came).
 */
export type OperationResult =
  | { kind: 'done' }
  | { kind: 'refused'; errorCode: number; message: string }
  | { kind: 'unconfirmed'; errorCode: number; message: string };

/**
 * The acquirer did not answer in time, or its answer could not be read: the
 * outcome is unknown, never a failure (ACQUIRER.md).
 */
export class AcquirerUnreachable extends Error {
  constructor(
    readonly call: string,
    readonly reason: string,
    /** True when the request may have reached the acquirer (a timeout, not a refused connection). */
    readonly maybeDelivered: boolean,
  ) {
    super(`acquirer ${call}: ${reason}`);
    this.name = 'AcquirerUnreachable';
  }
}

export interface Acquirer {
  register(terminal: Terminal, order: OrderRequest): Promise<RegisterResult>;
  pay(terminal: Terminal, orderId: string, card: Card, language: Language): Promise<PayResult>;
  finish3ds(terminal: Terminal, orderId: string, paRes: string): Promise<PayResult>;
  status(terminal: Terminal, orderId: string): Promise<OrderState>;
  /**
   * The order registered under `orderNumber` (exactly as sent to register),
   * for reconciliation: an order may never have been registered, so may have
   * no orderId. `not-found` means the acquirer never saw it.
   */
  statusByNumber(terminal: Terminal, orderNumber: string): Promise<OrderState>;
  /** Voids the whole of a paid order, once, before it is settled; or releases a hold. */
  reverse(terminal: Terminal, orderId: string): Promise<OperationResult>;
  /** Gives back `amount` (TND) of a paid order; repeatable while money is left. */
  refund(terminal: Terminal, orderId: string, amount: string): Promise<OperationResult>;
  /** Takes `amount` (TND, at most what is held) of a held order, once; the rest of the hold is released. */
  deposit(terminal: Terminal, orderId: string, amount: string): Promise<OperationResult>;
  /** How the terminal writes its answer about one order (an operator's probe before going live): only reads, and reads out no card data. */
  probeOrderStatus(terminal: Terminal, order: { orderId: string } | { orderNumber: string }): Promise<ProbedAnswer>;
}
