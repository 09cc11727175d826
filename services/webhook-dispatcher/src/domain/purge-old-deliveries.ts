/**
 * The retention sweep (issue 19): delivery records and stored events older
 * than WEBHOOK_RETENTION_DAYS are deleted, a small batch per statement so no
 * lock is held long, until none is left; replicas share it (each skips the rows another holds).
 */
import { inBatches } from '@gateway/db';
import type { DeliveryHistoryRepository } from '../db/delivery-history.repository.js';

export interface RetentionDeps {
  history: DeliveryHistoryRepository;
  retentionDays: number;
  batch: number;
  /** True once the service is stopping: the sweep ends after its current batch. */
  stopping: () => boolean;
}

/** Deletes what is past retention; returns how many records and events went. */
export async function purgeOldDeliveries(deps: RetentionDeps, now = Date.now()): Promise<{ deliveries: number; events: number }> {
  const before = new Date(now - deps.retentionDays * 86_400_000);
  const total = { deliveries: 0, events: 0 };
  await inBatches({ size: deps.batch, stopping: deps.stopping }, async () => {
    const deleted = await deps.history.deleteOlderThan(before, deps.batch);
    total.deliveries += deleted.deliveries;
    total.events += deleted.events;
    // The batch is short only when both deletes came short.
    return Math.max(deleted.deliveries, deleted.events);
  });
  return total;
}
