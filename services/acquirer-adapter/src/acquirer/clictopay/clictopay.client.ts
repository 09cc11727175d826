/**
 * The ClicToPay (BPC/RBS REST) client: form-encoded POSTs with the terminal's
 * credentials, a deadline on every call, and the answers read through the
 * transformers. Card fields go into the request body only: never into a URL,
 * a log line or an error.
 */
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { PageLanguage } from '@gateway/contracts';
import type { Acquirer, CardData, OrderRequest, OrderState, PayResult, RefundResult, RegisterResult, Terminal } from '../acquirer.js';
import { histogram, httpClientSpan, secondsSince } from '@gateway/observability';
import { AcquirerUnreachable } from '../acquirer.js';
import { deniesAccess, errorCode, TND_NUMERIC, toMillimes, toOrderState, toPayResult, toRefundResult, toRegisterResult, type Reply } from './clictopay.transformers.js';

/**
 * Every call to the acquirer, by call and outcome: `ok`, `error_code` (a
 * business error in an HTTP 200 answer: a decline, a refused refund, a
 * rejected terminal), `timeout` (no answer within the deadline) or `failed`
 * (no connection, another HTTP status, an unreadable answer).
 */
const acquirerCalls = histogram('gateway_acquirer_call_duration_seconds', 'Time from sending an acquirer call to its answer or failure, by call and outcome.', ['call', 'outcome']);

export class ClicToPayClient implements Acquirer {
  // Kept-alive connections: a payment makes three calls to the same acquirer.
  private readonly httpAgent = new HttpAgent({ keepAlive: true, maxSockets: 128 });
  private readonly httpsAgent = new HttpsAgent({ keepAlive: true, maxSockets: 128 });

  constructor(private readonly timeoutMs: number) {}

  async register(terminal: Terminal, order: OrderRequest): Promise<RegisterResult> {
    const reply = await this.post(terminal, 'register.do', {
      orderNumber: order.orderNumber,
      amount: toMillimes(order.amount),
      currency: TND_NUMERIC,
      returnUrl: order.returnUrl,
      description: order.description.slice(0, 500),
      // ClicToPay takes fr, en and ar (ACQUIRER.md): the page's language goes as it is, with no fallback needed.
      language: order.language,
    });
    if (errorCode(reply) !== 5) return toRegisterResult(reply);
    // "Invalid parameter value or access denied": the same credentials asking for an
    // order by its number, which has nothing to refuse, tell which. A refused parameter
    // must not lock the merchant's terminal; without an answer, it is not locked either.
    const probe = await this.post(terminal, 'getOrderStatusExtended.do', { orderNumber: order.orderNumber }).catch(() => undefined);
    return toRegisterResult(reply, probe !== undefined && deniesAccess(probe));
  }

  async pay(terminal: Terminal, orderId: string, card: CardData, language: PageLanguage): Promise<PayResult> {
    const reply = await this.post(terminal, 'paymentorder.do', {
      MDORDER: orderId,
      $PAN: card.pan,
      $CVC: card.cvc,
      YYYY: card.expYear,
      MM: card.expMonth,
      TEXT: card.holder,
      language,
    });
    return toPayResult(reply);
  }

  async finish3ds(terminal: Terminal, orderId: string, paRes: string): Promise<PayResult> {
    return toPayResult(await this.post(terminal, 'finish3dsPayment.do', { mdOrder: orderId, paRes }));
  }

  async status(terminal: Terminal, orderId: string): Promise<OrderState> {
    return this.orderStatus(terminal, { orderId });
  }

  async statusByNumber(terminal: Terminal, orderNumber: string): Promise<OrderState> {
    return this.orderStatus(terminal, { orderNumber });
  }

  async reverse(terminal: Terminal, orderId: string): Promise<RefundResult> {
    return toRefundResult(await this.post(terminal, 'reverse.do', { orderId }));
  }

  async refund(terminal: Terminal, orderId: string, amount: string): Promise<RefundResult> {
    return toRefundResult(await this.post(terminal, 'refund.do', { orderId, amount: toMillimes(amount) }));
  }

  private async orderStatus(terminal: Terminal, by: { orderId: string } | { orderNumber: string }): Promise<OrderState> {
    const state = toOrderState(await this.post(terminal, 'getOrderStatusExtended.do', by));
    if (!state) throw new AcquirerUnreachable('getOrderStatusExtended.do', 'unreadable order status', true);
    return state;
  }

  private post(terminal: Terminal, call: string, fields: Record<string, string>): Promise<Reply> {
    const body = Buffer.from(new URLSearchParams({ userName: terminal.userName, password: terminal.password, ...fields }).toString());
    const target = new URL(`${terminal.baseUrl.replace(/\/+$/, '')}/${call}`);
    const secure = target.protocol === 'https:';
    const started = process.hrtime.bigint();
    const headers: Record<string, string | number> = { 'content-type': 'application/x-www-form-urlencoded', 'content-length': body.length, accept: 'application/json' };
    // With tracing on, the call continues the payment's trace at the acquirer (traceparent: ids only).
    const span = httpClientSpan('POST', target, call, headers);
    return new Promise<Reply>((resolve, reject) => {
      let settled = false;
      const timer = setTimeout(() => fail('timed out', true), this.timeoutMs);
      const fail = (reason: string, maybeDelivered: boolean) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        span?.end(reason);
        request.destroy();
        acquirerCalls.observe({ call, outcome: reason === 'timed out' ? 'timeout' : 'failed' }, secondsSince(started));
        reject(new AcquirerUnreachable(call, reason, maybeDelivered));
      };
      const request = (secure ? httpsRequest : httpRequest)(
        {
          protocol: target.protocol,
          hostname: target.hostname,
          port: target.port,
          path: `${target.pathname}${target.search}`,
          method: 'POST',
          agent: secure ? this.httpsAgent : this.httpAgent,
          headers,
        },
        (response) => {
          const chunks: Buffer[] = [];
          let size = 0;
          response.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > MAX_REPLY_BYTES) fail('answer too large', true);
            else chunks.push(chunk);
          });
          response.on('error', () => fail('answer interrupted', true));
          response.on('end', () => {
            if (settled) return;
            if (response.statusCode !== 200) return fail(`HTTP ${response.statusCode ?? 0}`, true);
            try {
              const reply = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
              if (typeof reply !== 'object' || reply === null || Array.isArray(reply)) throw new Error('not an object');
              settled = true;
              clearTimeout(timer);
              span?.set('http.response.status_code', 200).end();
              acquirerCalls.observe({ call, outcome: errorCode(reply as Reply) === 0 ? 'ok' : 'error_code' }, secondsSince(started));
              resolve(reply as Reply);
            } catch {
              fail('unreadable answer', true);
            }
          });
        },
      );
      // Only the error's code: its message could quote the request.
      request.on('error', (err: NodeJS.ErrnoException) => fail(`connection failed (${err.code ?? 'error'})`, request.reusedSocket || err.code !== 'ECONNREFUSED'));
      request.end(body);
    });
  }
}

/** An acquirer answer is a small JSON object; anything larger is not one. */
const MAX_REPLY_BYTES = 64 * 1024;
