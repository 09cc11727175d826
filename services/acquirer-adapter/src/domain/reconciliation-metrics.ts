/**
 * Reconciliation's backlog on /metrics, read at scrape time: unresolved orders
 * by status (a payment whose outcome nobody knows yet) and how long the most
 * overdue one has waited past its check (the sweeps are not keeping up, or not
 * running). One query per scrape for both gauges.
 */
import { gauge } from '@gateway/observability';
import type { OrderRepository } from '../db/order.repository.js';

/** Unresolved payments, holds whose capture or release is not known yet (D22), and holds the acquirer would not release (an operator's). */
const STATUSES = ['STARTED', 'METHOD', 'CHALLENGED', 'REDIRECTED', 'UNKNOWN', 'CAPTURING', 'VOIDING', 'VOID_REFUSED'] as const;

type Backlog = Awaited<ReturnType<OrderRepository['reconciliationBacklog']>>;

/** The order tables this process reads (one per running adapter; tests may run two). */
const sources = new Set<() => Promise<Backlog>>();
let scrape: { at: number; state: Promise<Backlog | undefined> } | undefined;

/** The backlog of every source; undefined when the database did not answer (the gauges keep their last values). */
function backlog(): Promise<Backlog | undefined> {
  const now = Date.now();
  if (!scrape || now - scrape.at > 1_000) {
    scrape = {
      at: now,
      state: Promise.all([...sources].map((read) => read()))
        .then((all) => ({
          byStatus: new Map(STATUSES.map((status) => [status, all.reduce((sum, b) => sum + (b.byStatus.get(status) ?? 0), 0)])),
          oldestDueSeconds: Math.max(0, ...all.map((b) => b.oldestDueSeconds)),
        }))
        .catch(() => undefined),
    };
  }
  return scrape.state;
}

/** Shows the backlog of `orders` on /metrics; answers the function that stops it. */
export function watchReconciliationBacklog(orders: OrderRepository): () => void {
  const read = () => orders.reconciliationBacklog();
  sources.add(read);
  gauge('gateway_reconciliation_unresolved_orders', 'Acquirer orders whose outcome is not known yet, by status (STARTED, METHOD, CHALLENGED, REDIRECTED, UNKNOWN; CAPTURING and VOIDING for a hold whose capture or release is unknown; VOID_REFUSED for a hold the acquirer would not release), read at scrape time.', ['status'], async (g) => {
    const read = await backlog();
    if (read) for (const status of STATUSES) g.set({ status }, read.byStatus.get(status) ?? 0);
  });
  gauge('gateway_reconciliation_oldest_due_seconds', 'How long the most overdue unresolved order has waited past its reconciliation check; 0 when none is due (read at scrape time).', [], async (g) => {
    const read = await backlog();
    if (read) g.set(read.oldestDueSeconds);
  });
  return () => {
    sources.delete(read);
    scrape = undefined;
  };
}
