/**
 * The buyer's receipt an event asks for (receipts.ts), written to the mail
 * queue once whatever the event's deliveries (apply-once, packages/messaging:
 * unique on kind and source), in the receipt's language, with the merchant's
 * branding. An event without a buyer address fit for a header makes none, and
 * neither does a merchant with receipts off in the event's mode. The buyer is
 * named by address only: whatever they typed stays out of the mail (D29).
 */
import type { EventData, SessionEventData } from '@gateway/contracts';
import type { Change, ChangeContext } from '@gateway/messaging';
import type { Logger } from '@gateway/observability';
import type { MailQueueRepository, NewMail } from '../db/mail-queue.repository.js';
import { renderReceipt } from '../views/receipt-mail.js';
import { checkAddress } from './header-safety.js';
import { queuedMail } from './queued-mail.js';
import { receiptOf, type ReceiptBrand } from './receipts.js';
import { writeMail } from './write-mail.js';

type ReceiptEvent = 'session.succeeded' | 'refund.created' | 'refund.updated';

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
  return queuedMail(
    {
      kind: receipt.kind,
      source: receipt.kind === 'payment_receipt' ? data.session.id : (data.session.refund?.refund_id ?? data.session.id),
      merchantId: data.merchant_id,
      livemode: data.session.livemode,
      language: receipt.language,
      recipient,
    },
    renderReceipt(receipt),
  );
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
export function buyerReceipts(mails: MailQueueRepository, log: Logger, sources: ReceiptSources): Change<ReceiptEvent, ReceiptAsked, string> {
  return {
    name: 'buyer-receipts',
    events: ['session.succeeded', 'refund.created', 'refund.updated'],
    fromEvent: (data: EventData<ReceiptEvent>, context: ChangeContext) => (receiptOf(context.event?.type, data, context.at) ? { type: context.event?.type, data, at: context.at } : undefined),
    apply: async ({ type, data, at }) => {
      if (!(await sources.receiptsEnabled(data.merchant_id, data.session.livemode))) return undefined;
      const mail = receiptMail(type, data, at, log, await sources.brandOf(data.merchant_id));
      return mail === undefined ? undefined : (await writeMail(mails, log, mail))?.id;
    },
  };
}
