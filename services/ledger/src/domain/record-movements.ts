/**
 * The ledger's one change (apply-once, packages/messaging): the balance
 * transactions an event announces, each written once whatever the event's
 * deliveries (keyed on type and source), with its Africa/Tunis day and the
 * date it becomes available.
 */
import { addDays, tunisDate } from '@gateway/contracts';
import { newEntryId, type Entry, type LedgerRepository } from '../db/ledger.repository.js';
import type { Movement } from './movements.js';

/** A movement as the ledger writes it: with a fresh id, its day and its available date. */
export function entryOf(movement: Movement, settlementDelayDays: number): Entry {
  const day = tunisDate(movement.createdAt);
  return { ...movement, id: newEntryId(), day, availableOn: addDays(day, settlementDelayDays) };
}

/** Writes the movements not written yet; the ids of the entries this call wrote. */
export function recordMovements(ledger: LedgerRepository, movements: readonly Movement[], settlementDelayDays: number): Promise<string[] | undefined> {
  return ledger.record(movements.map((movement) => entryOf(movement, settlementDelayDays)));
}
