/**
 * The Flouci (D26, WALLET.md) client: JSON calls under the application's API
 * base with `Authorization: Bearer <public>:<private>`, a deadline on every
 * call, and the answers read through the transformers. The private key goes
 * in that header only: never into a URL, a log line or an error.
 */
import { HttpClient, HttpClientError, type ReadAnswer } from '@gateway/http-client';
import { histogram, httpClientSpan, secondsSince } from '@gateway/observability';
import type { Connector, OperationResult, OrderRequest, OrderState, PaymentRef, RefundRequest, RegisterResult, Terminal } from '../acquirer.js';
import { AcquirerUnreachable } from '../acquirer.js';
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

/**
 * Every call to an acquirer, by call and outcome (the ClicToPay client's
 * histogram, shared): `ok`, `error_code` (Flouci's `success: false`),
 * `timeout` or `failed` (no connection, another HTTP status, an unreadable answer).
 */
const acquirerCalls = histogram('gateway_acquirer_call_duration_seconds', 'Time from sending an acquirer call to its answer or failure, by call and outcome.', ['call', 'outcome']);

/** A Flouci answer is a small JSON object; anything larger is not one. */
const MAX_REPLY_BYTES = 64 * 1024;

type Call = 'generate_payment' | 'verify_payment' | 'confirm_payment' | 'cancel_payment' | 'refund_payment';

export class FlouciClient implements Connector {
  readonly method = 'flouci' as const;
  // Kept-alive connections: a payment's start and verifications go to the same origin.
  private readonly http: HttpClient;

  /**
   * `timeoutMs` bounds each call: connecting, the answer and reading it, and
   * any wait for a free connection too; so `connections` (per origin) must
   * cover every call the adapter can have in flight at once.
   */
  constructor(timeoutMs: number, connections = 128) {
    this.http = new HttpClient({ connectionsPerOrigin: connections, timeoutMs });
  }

  /** Closes the kept-alive connections to Flouci. */
  async close(): Promise<void> {
    await this.http.close();
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
    const target = new URL(`${account.baseUrl.replace(/\/+$/, '')}/${path}`);
    const started = process.hrtime.bigint();
    const headers: Record<string, string> = { accept: 'application/json', authorization: `Bearer ${account.userName}:${account.password}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    // With tracing on, the call continues the payment's trace at Flouci (traceparent: ids only).
    const span = httpClientSpan(method, target, call, headers);
    const fail = (reason: string, maybeDelivered: boolean, outcome: 'timeout' | 'failed' = 'failed', httpStatus?: number): never => {
      span?.end(reason);
      acquirerCalls.observe({ call, outcome }, secondsSince(started));
      throw new AcquirerUnreachable(call, reason, maybeDelivered, httpStatus);
    };
    let answer: ReadAnswer;
    try {
      answer = await this.http.send({ url: target, method, headers, ...(body !== undefined && { body: JSON.stringify(body) }), maxResponseBytes: MAX_REPLY_BYTES });
    } catch (err) {
      if (!(err instanceof HttpClientError)) throw err;
      if (err.kind === 'timeout') return fail('timed out', true, 'timeout');
      if (err.kind === 'interrupted') return fail('answer interrupted', true);
      // Only the error's code: its message could quote the request.
      return fail(`connection failed (${err.code ?? 'error'})`, err.mayHaveReached);
    }
    if (!answer.complete) return fail('answer too large', true);
    if (answer.statusCode !== 200) return fail(`HTTP ${answer.statusCode}`, true, 'failed', answer.statusCode);
    let reply: unknown;
    try {
      reply = JSON.parse(answer.body.toString('utf8'));
    } catch {
      reply = undefined;
    }
    if (typeof reply !== 'object' || reply === null || Array.isArray(reply)) return fail('unreadable answer', true);
    span?.set('http.response.status_code', 200).end();
    acquirerCalls.observe({ call, outcome: isRefusal(reply as FlouciReply) ? 'error_code' : 'ok' }, secondsSince(started));
    return reply as FlouciReply;
  }
}
