/**
 * The ClicToPay (BPC/RBS REST) client: form-encoded POSTs with the terminal's
 * credentials, a deadline on every call, and the answers read through the
 * transformers. Card fields go into the request body only: never into a URL,
 * a log line or an error.
 */
import type { Acquirer, CardData, OrderRequest, OrderState, PayResult, RegisterResult, Terminal } from '../acquirer.js';
import { AcquirerUnreachable } from '../acquirer.js';
import { TND_NUMERIC, toMillimes, toOrderState, toPayResult, toRegisterResult, type Reply } from './clictopay.transformers.js';

export class ClicToPayClient implements Acquirer {
  constructor(private readonly timeoutMs: number) {}

  async register(terminal: Terminal, order: OrderRequest): Promise<RegisterResult> {
    const reply = await this.post(terminal, 'register.do', {
      orderNumber: order.orderNumber,
      amount: toMillimes(order.amount),
      currency: TND_NUMERIC,
      returnUrl: order.returnUrl,
      description: order.description.slice(0, 500),
      language: 'fr',
    });
    return toRegisterResult(reply);
  }

  async pay(terminal: Terminal, orderId: string, card: CardData): Promise<PayResult> {
    const reply = await this.post(terminal, 'paymentorder.do', {
      MDORDER: orderId,
      $PAN: card.pan,
      $CVC: card.cvc,
      YYYY: card.expYear,
      MM: card.expMonth,
      TEXT: card.holder,
      language: 'fr',
    });
    return toPayResult(reply);
  }

  async finish3ds(terminal: Terminal, orderId: string, paRes: string): Promise<PayResult> {
    return toPayResult(await this.post(terminal, 'finish3dsPayment.do', { mdOrder: orderId, paRes }));
  }

  async status(terminal: Terminal, orderId: string): Promise<OrderState> {
    const reply = await this.post(terminal, 'getOrderStatusExtended.do', { orderId });
    const state = toOrderState(reply);
    if (!state) throw new AcquirerUnreachable('getOrderStatusExtended.do', 'unreadable order status', true);
    return state;
  }

  private async post(terminal: Terminal, call: string, fields: Record<string, string>): Promise<Reply> {
    const body = new URLSearchParams({ userName: terminal.userName, password: terminal.password, ...fields });
    let response: Response;
    try {
      response = await fetch(`${terminal.baseUrl.replace(/\/+$/, '')}/${call}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body,
        redirect: 'error',
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      // Only the error's name: its message or cause could quote the request.
      const name = err instanceof Error ? err.name : 'error';
      const timedOut = name === 'TimeoutError' || name === 'AbortError';
      throw new AcquirerUnreachable(call, timedOut ? 'timed out' : `connection failed (${name})`, timedOut);
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new AcquirerUnreachable(call, `HTTP ${response.status}`, true);
    }
    try {
      const reply = (await response.json()) as unknown;
      if (typeof reply !== 'object' || reply === null || Array.isArray(reply)) throw new Error('not an object');
      return reply as Reply;
    } catch {
      throw new AcquirerUnreachable(call, 'unreadable answer', true);
    }
  }
}
