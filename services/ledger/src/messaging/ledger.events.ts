/**
 * The ledger's events: the change its event consumer applies, the events
 * that announce it, and the movements each event carries; the use case that
 * writes them is in domain/.
 */
import type { EventData } from '@gateway/contracts';
import type { AnyChange, Change } from '@gateway/messaging';
import type { LedgerRepository } from '../db/ledger.repository.js';
import { paymentMovement, refundMovements, type Movement } from '../domain/movements.js';
import { recordMovements } from '../domain/record-movements.js';

type MoneyEvent = 'session.succeeded' | 'refund.created' | 'refund.updated';

/** The changes the event consumer applies, whichever event of theirs arrives. */
export function ledgerEvents(ledger: LedgerRepository, settlementDelayDays: number): AnyChange[] {
  // It answers the ids of the entries it wrote.
  const moneyMovements: Change<MoneyEvent, Movement[], string[]> = {
    name: 'balance-transactions',
    events: ['session.succeeded', 'refund.created', 'refund.updated'],
    fromEvent: (data: EventData<MoneyEvent>, context) => {
      const type = context.event?.type;
      if (type === 'session.succeeded') return [paymentMovement(data, context.at)];
      if (type === 'refund.created' || type === 'refund.updated') return refundMovements(type, data, context.at);
      return undefined;
    },
    apply: (movements) => recordMovements(ledger, movements, settlementDelayDays),
  };
  return [moneyMovements];
}
