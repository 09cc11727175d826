/**
 * The Flouci (D26, WALLET.md) client: JSON calls under the application's API
 * base with `Authorization: Bearer <public>:<private>`, a deadline on every
 * call, and the answers read through the transformers. The private key goes
 * in that header only: never into a URL, a log line or an error.
 */
import type { Connector, OperationResult, OrderRequest, OrderState, PaymentRef, RefundRequest, RegisterResult, Terminal } from '../acquirer.js';
import { AcquirerUnreachable } from '../acquirer.js';
import { ConnectorTransport } from '../connector-transport.js';
import {
  generatePaymentBody,
  isRefusal,
  keysRejected,
  partialCaptureRefusal,
  partialRefundRefusal,
  toOperationResult,
  toOrderState,
  toRegisterResult,
  unansweredOperation,
  type FlouciReply,
} from './flouci.transformers.js';

type Call = 'generate_payment' | 'verify_payment' | 'confirm_payment' | 'cancel_payment' | 'refund_payment';

export class FlouciClient implements Connector {
  readonly method = 'flouci' as const;
  // Kept-alive connections: a payment's start and verifications go to the same origin.
  private readonly transport: ConnectorTransport;

  /** `timeoutMs` bounds each call; `connections` (per origin) must cover every call in flight at once (ConnectorTransport). */
  constructor(timeoutMs: number, connections = 128) {
    this.transport = new ConnectorTransport(timeoutMs, connections);
  }

  /** Closes the kept-alive connections to Flouci. */
  async close(): Promise<void> {
    await this.transport.close();
  }

  async start(account: Terminal, order: OrderRequest): Promise<RegisterResult> {
    const body = generatePaymentBody(order);
    let reply: FlouciReply;
    try {
      reply = await this.send(account, 'generate_payment', 'POST', 'generate_payment', body);
    } catch (err) {
      if (err instanceof AcquirerUnreachable && err.httpStatus === 401) return { kind: 'credentials-rejected', message: "Flouci refused the application's public and private keys (HTTP 401)." };
      throw err;
    }
    const result = toRegisterResult(reply);
    if (!result) throw new AcquirerUnreachable('generate_payment', 'unreadable answer', true);
    return result;
  }

  /** Flouci finds a payment by its id only: one it never gave an id for (a start that timed out) is not-found. */
  async status(account: Terminal, payment: PaymentRef): Promise<OrderState> {
    if (payment.reference === null) return { kind: 'not-found' };
    const state = toOrderState(await this.send(account, 'verify_payment', 'GET', `verify_payment/${encodeURIComponent(payment.reference)}`));
    if (!state) throw new AcquirerUnreachable('verify_payment', 'unreadable payment status', true);
    return state;
  }

  /**
   * confirm_payment takes the whole hold: the hold is read first, and another
   * amount is refused without confirming. When the hold cannot be read,
   * nothing was confirmed: the failure says so (not delivered).
   */
  async capture(account: Terminal, reference: string, amount: string): Promise<OperationResult> {
    let state: OrderState;
    try {
      state = await this.status(account, { reference, orderNumber: '' });
    } catch (err) {
      if (!(err instanceof AcquirerUnreachable)) throw err;
      throw new AcquirerUnreachable('confirm_payment', `the hold could not be read (${err.reason}); nothing was sent`, false);
    }
    return partialCaptureRefusal(amount, state) ?? this.operation(account, 'confirm_payment', reference);
  }

  /** cancel_payment: Flouci releases a hold; a paid payment cannot be voided there, and Flouci's refusal says so. */
  async void(account: Terminal, reference: string): Promise<OperationResult> {
    return this.operation(account, 'cancel_payment', reference);
  }

  /** refund_payment gives back a whole payment, once: anything else is refused without a call. */
  async refund(account: Terminal, refund: RefundRequest): Promise<OperationResult> {
    return partialRefundRefusal(refund) ?? this.operation(account, 'refund_payment', refund.reference);
  }

  /**
   * A call that changes a payment. Its answer decides; a call that surely
   * never reached Flouci (a refused connection) fails as unreachable, not
   * delivered; refused keys are a refusal; any other failure (a timeout, an
   * HTTP error, an unreadable answer) is unconfirmed, never done.
   */
  private async operation(account: Terminal, call: 'confirm_payment' | 'cancel_payment' | 'refund_payment', reference: string): Promise<OperationResult> {
    try {
      return toOperationResult(await this.send(account, call, 'POST', call, { payment_id: reference }));
    } catch (err) {
      if (!(err instanceof AcquirerUnreachable) || !err.maybeDelivered) throw err;
      return err.httpStatus === 401 ? keysRejected(call) : unansweredOperation(call, err.reason);
    }
  }

  private async send(account: Terminal, call: Call, method: 'GET' | 'POST', path: string, body?: object): Promise<FlouciReply> {
    const url = new URL(`${account.baseUrl.replace(/\/+$/, '')}/${path}`);
    const headers: Record<string, string> = { accept: 'application/json', authorization: `Bearer ${account.userName}:${account.password}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    return this.transport.send({ call, url, method, headers, ...(body !== undefined && { body: JSON.stringify(body) }), refused: (reply) => isRefusal(reply) });
  }
}
