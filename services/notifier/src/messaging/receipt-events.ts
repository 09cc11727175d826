/**
 * The notifier's one change (apply-once, packages/messaging): the buyer's
 * receipt an event asks for, written to the mail outbox once whatever the
 * event's deliveries (unique on kind and source). session.succeeded makes a
 * payment receipt; a refund makes its receipt once it has succeeded: at
 * refund.created when the acquirer confirmed it, at refund.updated when an
 * operator resolved it as succeeded (D16). An event without a buyer
 * address fit for a header, or without the receipt facts its publisher adds,
 * makes none.
 */
import type { EventData, SessionEventData } from '@gateway/contracts';
import type { Change, ChangeContext } from '@gateway/messaging';
import type { Logger } from '@gateway/observability';
import type { MailRepository, NewMail } from '../db/mail.repository.js';
import { checkAddress, headerText } from '../domain/header-safety.js';
import { receiptLanguage, renderReceipt, type Receipt } from '../domain/receipts.js';

type ReceiptEvent = 'session.succeeded' | 'refund.created' | 'refund.updated';

/** Headers every notifier mail carries (RFC 3834: no auto-replies to it). */
export const MAIL_HEADERS: Readonly<Record<string, string>> = { 'Auto-Submitted': 'auto-generated' };

/** The receipt an event asks for, or undefined when it asks for none. */
export function receiptOf(type: string | undefined, data: SessionEventData, at: Date): Receipt | undefined {
  const { session, receipt } = data;
  if (!receipt) return undefined;
  const common = {
    language: receiptLanguage(receipt.locale),
    merchantName: receipt.merchant_name,
    buyerName: `${session.buyer.first_name} ${session.buyer.last_name}`,
    orderNumber: session.order_number,
    original: session.original.currency === 'TND' ? undefined : { amount: session.original.amount, currency: session.original.currency },
    card: session.payment ? { brand: session.payment.card_brand, lastFour: session.payment.card_last_four } : undefined,
  };
  if (type === 'session.succeeded') {
    return { ...common, kind: 'payment_receipt', amount: session.amount_captured ?? session.amount, at: session.paid_at ? new Date(session.paid_at) : at };
  }
  if ((type === 'refund.created' || type === 'refund.updated') && session.refund?.status === 'succeeded') {
    const refundedAt = session.refund.created_at ? new Date(session.refund.created_at) : at;
    return { ...common, kind: 'refund_receipt', original: undefined, amount: session.refund.amount, at: refundedAt };
  }
  return undefined;
}

/** The mail of the receipt `data` asks for, to its buyer; undefined when there is none to send. */
export function receiptMail(type: string | undefined, data: SessionEventData, at: Date, log: Logger): NewMail | undefined {
  const receipt = receiptOf(type, data, at);
  if (!receipt) return undefined;
  const recipient = checkAddress(data.session.buyer.email);
  if (recipient === undefined) {
    log.warn({ sessionId: data.session.id, type }, 'receipt not written: the buyer address is not one a header may carry');
    return undefined;
  }
  const rendered = renderReceipt(receipt);
  return {
    kind: receipt.kind,
    source: receipt.kind === 'payment_receipt' ? data.session.id : (data.session.refund?.refund_id ?? data.session.id),
    merchantId: data.merchant_id,
    livemode: data.session.livemode,
    language: receipt.language,
    recipient,
    recipientName: headerText(receipt.buyerName, 100),
    subject: rendered.subject,
    text: rendered.text,
    html: rendered.html,
    headers: MAIL_HEADERS,
  };
}

/** The change; it answers the id of the mail it wrote. */
export function buyerReceipts(mails: MailRepository, log: Logger): Change<ReceiptEvent, NewMail, string> {
  return {
    name: 'buyer-receipts',
    events: ['session.succeeded', 'refund.created', 'refund.updated'],
    fromEvent: (data: EventData<ReceiptEvent>, context: ChangeContext) => receiptMail(context.event?.type, data, context.at, log),
    apply: (mail) => mails.enqueue(mail, new Date()),
  };
}
