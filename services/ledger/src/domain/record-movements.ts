/**
 * The ledger's one change (apply-once, packages/messaging): the balance
 * transactions an event announces, each written once whatever the event's
 * deliveries (keyed on type and source), with its Africa/Tunis day and the
 * date it becomes available.
 */
import { addDays, tunisDate, type EventData } from '@gateway/contracts';
import type { Change } from '@gateway/messaging';
import { newEntryId, type Entry, type LedgerRepository } from '../db/ledger.repository.js';
import { paymentMovement, refundMovements, type Movement } from './movements.js';

type MoneyEvent = 'session.succeeded' | 'refund.created' | 'refund.updated';

/** A movement as the ledger writes it: with a fresh id, its day and its available date. */
export function entryOf(movement: Movement, settlementDelayDays: number): Entry {
  const day = tunisDate(movement.createdAt);
  return { ...movement, id: newEntryId(), day, availableOn: addDays(day, settlementDelayDays) };
}

/** The change; it answers the ids of the entries it wrote. */
export function moneyMovements(ledger: LedgerRepository, settlementDelayDays: number): Change<MoneyEvent, Movement[], string[]> {
  return {
    name: 'balance-transactions',
    events: ['session.succeeded', 'refund.created', 'refund.updated'],
    fromEvent: (data: EventData<MoneyEvent>, context) => {
      const type = context.event?.type;
      if (type === 'session.succeeded') return [paymentMovement(data, context.at)];
      if (type === 'refund.created' || type === 'refund.updated') return refundMovements(type, data, context.at);
      return undefined;
    },
    apply: (movements) => ledger.record(movements.map((movement) => entryOf(movement, settlementDelayDays))),
  };
}
