/**
 * The ClicToPay (BPC/RBS REST) client: form-encoded POSTs with the terminal's
 * credentials, a deadline on every call, and the answers read through the
 * transformers. Card fields go into the request body only: never into a URL,
 * a log line or an error.
 */
import type { ProbedAnswer } from '@gateway/contracts';
import type { CardConnector, CardPayment, FinishResult, OperationResult, OrderRequest, OrderState, PaymentRef, PayResult, RefundRequest, RegisterResult, SavedCardPayment, Terminal } from '../acquirer.js';
import { AcquirerUnreachable } from '../acquirer.js';
import { ConnectorTransport } from '../connector-transport.js';
import { describeStatusAnswer } from './clictopay.answer-shape.js';
import { acquirerMessage, errorCode, type Reply } from './clictopay.codes.js';
import {
  buyerFields,
  deniesAccess,
  TND_NUMERIC,
  toMillimes,
  toOperationResult,
  toOrderAmounts,
  toOrderState,
  toPayResult,
  toRegisterResult,
  type OrderAmounts,
} from './clictopay.transformers.js';

export class ClicToPayClient implements CardConnector {
  readonly method = 'card';

  // Kept-alive connections: a payment makes three calls to the same acquirer.
  private readonly transport: ConnectorTransport;

  /** `timeoutMs` bounds each call; `connections` (per acquirer origin) must cover every call in flight at once (ConnectorTransport). */
  constructor(timeoutMs: number, connections = 128) {
    this.transport = new ConnectorTransport(timeoutMs, connections);
  }

  /** Closes the kept-alive connections to the acquirer. */
  async close(): Promise<void> {
    await this.transport.close();
  }

  /** register.do, or registerPreAuth.do for a two-phase order. */
  async start(terminal: Terminal, order: OrderRequest): Promise<RegisterResult> {
    // D22: a two-phase order holds the approved amount until deposit.do or reverse.do.
    const reply = await this.post(terminal, order.twoPhase ? 'registerPreAuth.do' : 'register.do', {
      orderNumber: order.orderNumber,
      amount: toMillimes(order.amount),
      currency: TND_NUMERIC,
      returnUrl: order.returnUrl,
      description: order.description.slice(0, 500),
      // ClicToPay takes fr, en and ar (ACQUIRER.md): the page's language goes as it is, with no fallback needed.
      language: order.language,
      // D24: the order is the client's (a saved card of theirs pays only their orders), and its card is kept for them once paid.
      ...(order.clientId !== undefined && { clientId: order.clientId }),
      ...(order.clientId !== undefined && order.saveCard === true && { features: 'FORCE_CREATE_BINDING' }),
    });
    if (errorCode(reply) !== 5) return toRegisterResult(reply);
    // "Invalid parameter value or access denied": the same credentials asking for an
    // order by its number, which has nothing to refuse, tell which. A refused parameter
    // must not lock the merchant's terminal; without an answer, it is not locked either.
    const probe = await this.post(terminal, 'getOrderStatusExtended.do', { orderNumber: order.orderNumber }).catch(() => undefined);
    return toRegisterResult(reply, probe !== undefined && deniesAccess(probe));
  }

  async pay(terminal: Terminal, orderId: string, payment: CardPayment): Promise<PayResult> {
    const { card } = payment;
    const reply = await this.post(terminal, 'paymentorder.do', {
      MDORDER: orderId,
      $PAN: card.pan,
      $CVC: card.cvc,
      YYYY: card.expYear,
      MM: card.expMonth,
      TEXT: card.holder,
      language: payment.language,
      // 3-D Secure 2 (D30): the buyer's address and email or phone, where the ACS returns them, and on the repeat the transaction.
      ...buyerFields(payment.buyer),
      threeDSVer2FinishUrl: payment.finishUrl,
      ...(payment.threeDSServerTransId !== undefined && { threeDSServerTransId: payment.threeDSServerTransId }),
    });
    return toPayResult(reply);
  }

  async payWithBinding(terminal: Terminal, orderId: string, payment: SavedCardPayment): Promise<PayResult> {
    const { binding } = payment;
    const reply = await this.post(terminal, 'paymentOrderBinding.do', {
      // The buyer's email and phone as with a typed card (D30); `ip` is this call's own, required.
      ...buyerFields(payment.buyer),
      mdOrder: orderId,
      bindingId: binding.bindingId,
      ip: binding.ip,
      tii: binding.tii,
      ...(binding.cvc !== undefined && { cvc: binding.cvc }),
      language: payment.language,
      threeDSVer2FinishUrl: payment.finishUrl,
      ...(payment.threeDSServerTransId !== undefined && { threeDSServerTransId: payment.threeDSServerTransId }),
    });
    return toPayResult(reply);
  }

  async finish3ds(terminal: Terminal, orderId: string, paRes: string): Promise<PayResult> {
    return toPayResult(await this.post(terminal, 'finish3dsPayment.do', { mdOrder: orderId, paRes }));
  }

  async finish3ds2(terminal: Terminal, orderId: string, serverTransId: string): Promise<FinishResult> {
    let reply: Reply;
    try {
      reply = await this.post(terminal, 'finish3dsVer2Payment.do', { mdOrder: orderId, threeDSServerTransId: serverTransId });
    } catch (err) {
      // A deployment without the call (SATIM's, for one) answers 404: it finishes the order itself.
      if (err instanceof AcquirerUnreachable && err.httpStatus === 404) return { kind: 'absent' };
      throw err;
    }
    const code = errorCode(reply) ?? 0;
    return code === 0 ? { kind: 'finished' } : { kind: 'refused', message: `errorCode ${code}: ${acquirerMessage(reply) ?? 'no message'}` };
  }

  /**
   * getOrderStatusExtended.do by orderId; by orderNumber (exactly as sent to
   * register) when asked so, for reconciliation, or when no orderId came back.
   */
  async status(terminal: Terminal, payment: PaymentRef): Promise<OrderState> {
    return this.orderStatus(terminal, payment.byNumber === true || payment.reference === null ? { orderNumber: payment.orderNumber } : { orderId: payment.reference });
  }

  /** reverse.do. */
  async void(terminal: Terminal, orderId: string): Promise<OperationResult> {
    const answer = toOperationResult(await this.post(terminal, 'reverse.do', { orderId }));
    return answer.kind === 'silent' ? this.confirmSilent(terminal, orderId, 'reversal', (order) => order.orderStatus === 3) : answer;
  }

  /** refund.do, repeatable while money is left. */
  async refund(terminal: Terminal, { reference: orderId, amount, refundedAtMost }: RefundRequest): Promise<OperationResult> {
    const millimes = BigInt(toMillimes(amount));
    const answer = toOperationResult(await this.post(terminal, 'refund.do', { orderId, amount: millimes.toString() }));
    if (answer.kind !== 'silent') return answer;
    // Done only if more is refunded than all that can have been before, by this amount.
    const needed = BigInt(toMillimes(refundedAtMost)) + millimes;
    return this.confirmSilent(terminal, orderId, 'refund', (order) => order.refunded !== undefined && order.refunded >= needed);
  }

  /** deposit.do. */
  async capture(terminal: Terminal, orderId: string, amount: string): Promise<OperationResult> {
    const millimes = BigInt(toMillimes(amount));
    const answer = toOperationResult(await this.post(terminal, 'deposit.do', { orderId, amount: millimes.toString() }));
    if (answer.kind !== 'silent') return answer;
    return this.confirmSilent(terminal, orderId, 'deposit', (order) => order.orderStatus === 2 && order.deposited === millimes);
  }

  /**
   * An order-management call answered with no code at all (ACQUIRER.md
   * "Answers as deployed") is done only when the order's status shows it;
   * else, or when the status cannot be read, it is unconfirmed.
   */
  private async confirmSilent(terminal: Terminal, orderId: string, operation: string, shows: (order: OrderAmounts) => boolean): Promise<OperationResult> {
    const order = await this.post(terminal, 'getOrderStatusExtended.do', { orderId })
      .then(toOrderAmounts)
      .catch(() => undefined);
    if (order && shows(order)) return { kind: 'done' };
    return { kind: 'unconfirmed', errorCode: -1, message: `The card processor's answer carried no result, and the order's status does not show the ${operation}.` };
  }

  async unbind(terminal: Terminal, bindingId: string): Promise<OperationResult> {
    const reply = await this.post(terminal, 'unBindCard.do', { bindingId });
    // 2: unknown or unbound already (ACQUIRER.md): either way the acquirer binds the card no more.
    return errorCode(reply) === 2 ? { kind: 'done' } : unconfirmedIfSilent(toOperationResult(reply));
  }

  async probeOrderStatus(terminal: Terminal, order: { orderId: string } | { orderNumber: string }): Promise<ProbedAnswer> {
    return describeStatusAnswer(await this.post(terminal, 'getOrderStatusExtended.do', order));
  }

  private async orderStatus(terminal: Terminal, by: { orderId: string } | { orderNumber: string }): Promise<OrderState> {
    const state = toOrderState(await this.post(terminal, 'getOrderStatusExtended.do', by));
    if (!state) throw new AcquirerUnreachable('getOrderStatusExtended.do', 'unreadable order status', true);
    return state;
  }

  private async post(terminal: Terminal, call: string, fields: Record<string, string>): Promise<Reply> {
    const body = Buffer.from(new URLSearchParams({ userName: terminal.userName, password: terminal.password, ...fields }).toString());
    const url = new URL(`${terminal.baseUrl.replace(/\/+$/, '')}/${call}`);
    const headers = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
    return (await this.transport.send({ call, url, method: 'POST', headers, body, refused: (reply) => (errorCode(reply as Reply) ?? 0) !== 0 })) as Reply;
  }
}

/** An answer with no code at all says nothing done. */
function unconfirmedIfSilent(answer: OperationResult | { kind: 'silent' }): OperationResult {
  return answer.kind === 'silent' ? { kind: 'unconfirmed', errorCode: -1, message: "The card processor's answer carried no result." } : answer;
}

