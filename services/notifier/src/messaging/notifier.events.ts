/**
 * The events the notifier takes, each applied once (packages/messaging): a
 * buyer's receipt from a payment or a refund, and the owners' notices of an
 * endpoint disabled or a refund an operator resolved. A resolved refund asks
 * for both, so the changes are joined per event type.
 */
import type { EventType } from '@gateway/contracts';
import type { AnyChange, ChangeContext } from '@gateway/messaging';
import type { Logger } from '@gateway/observability';
import type { MailQueueRepository } from '../db/mail-queue.repository.js';
import { ownerNotices, type Owners } from '../domain/owner-notices.js';
import { buyerReceipts, type ReceiptSources } from '../domain/write-receipt.js';

interface NotifierEventDeps {
  mails: MailQueueRepository;
  receiptSources: ReceiptSources;
  /** A merchant's owners, as the dashboard names them. */
  ownersOf: (merchantId: string) => Promise<Owners>;
  log: Logger;
}

export function notifierEvents(deps: NotifierEventDeps): AnyChange[] {
  return together([buyerReceipts(deps.mails, deps.log, deps.receiptSources), ownerNotices(deps.mails, deps.ownersOf, deps.log)]);
}

/**
 * Several changes as one per event type: an event consumer applies one change
 * per type, and an event may ask for several (a resolved refund's receipt to
 * the buyer and its notice to the owners). Each is applied once, in order; the
 * whole answers what each applied, or undefined when none applied anything.
 */
export function together(changes: readonly AnyChange[]): AnyChange[] {
  const types = [...new Set(changes.flatMap((change) => change.events))];
  return types.map((type): AnyChange => {
    const mine = changes.filter((change) => change.events.includes(type));
    if (mine.length === 1 && mine[0]) return { ...mine[0], events: [type] };
    return {
      name: mine.map((change) => change.name).join('+'),
      events: [type as EventType],
      fromEvent: (data: never, context: ChangeContext) => {
        const inputs = mine.map((change) => change.fromEvent(data, context));
        return inputs.every((input) => input === undefined) ? undefined : inputs;
      },
      apply: async (inputs: never, context: ChangeContext) => {
        const applied: unknown[] = [];
        for (const [i, change] of mine.entries()) {
          const input = (inputs as unknown[])[i];
          applied.push(input === undefined ? undefined : await change.apply(input as never, context));
        }
        return applied.some((result) => result !== undefined) ? applied : undefined;
      },
    };
  });
}
