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
import { receiptLanguage, renderReceipt, type Receipt, type ReceiptBrand } from '../domain/receipts.js';

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

/** The mail of the receipt `data` asks for, to its buyer, with the merchant's `brand`; undefined when there is none to send. */
export function receiptMail(type: string | undefined, data: SessionEventData, at: Date, log: Logger, brand?: ReceiptBrand): NewMail | undefined {
  const found = receiptOf(type, data, at);
  if (!found) return undefined;
  const receipt = brand === undefined ? found : { ...found, brand };
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

/** What a receipt needs beyond its event (D20). */
export interface ReceiptSources {
  /** Whether the account's buyers get receipts: the merchant's switch per mode. */
  receiptsEnabled: (merchantId: string, livemode: boolean) => Promise<boolean>;
  /** The merchant's branding, from the checkout; its failure fails the change, and the event comes again. */
  brandOf: (merchantId: string) => Promise<ReceiptBrand>;
}

/** An event that asks for a receipt, kept as it came until the change is applied. */
interface ReceiptAsked {
  type: string | undefined;
  data: SessionEventData;
  at: Date;
}

/**
 * The change; it answers the id of the mail it wrote. The switch and the
 * branding are read when it is applied: a merchant with receipts off in the
 * event's mode gets no mail written.
 */
export function buyerReceipts(mails: MailRepository, log: Logger, sources: ReceiptSources): Change<ReceiptEvent, ReceiptAsked, string> {
  return {
    name: 'buyer-receipts',
    events: ['session.succeeded', 'refund.created', 'refund.updated'],
    fromEvent: (data: EventData<ReceiptEvent>, context: ChangeContext) => (receiptOf(context.event?.type, data, context.at) ? { type: context.event?.type, data, at: context.at } : undefined),
    apply: async ({ type, data, at }) => {
      if (!(await sources.receiptsEnabled(data.merchant_id, data.session.livemode))) return undefined;
      const mail = receiptMail(type, data, at, log, await sources.brandOf(data.merchant_id));
      return mail === undefined ? undefined : mails.enqueue(mail, new Date());
    },
  };
}
