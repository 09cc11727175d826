/**
 * The audit log's entries for the changes the dashboard makes (D14): written
 * to the outbox in the change's own transaction, or, for a change another
 * service makes for a dashboard user without auditing it, after it with its
 * outcome.
 */
import { newId, type AuditEntry } from '@gateway/contracts';
import type { Queryable } from '@gateway/db';
import { enqueue } from '@gateway/messaging';
import { AppError } from '@gateway/problem';
import type { AccountsDeps, Doer } from './accounts.js';

/** A change as the audit log names it. */
export interface Change {
  action: string;
  merchantId: string | null;
  target: string | null;
  detail: Record<string, unknown>;
}

/** Records a change the dashboard made itself in the audit log (D14), in the change's own transaction. */
export async function recordAudit(db: Queryable, doer: Doer, change: Change & { outcome?: string }): Promise<void> {
  const at = new Date().toISOString();
  const entry: AuditEntry = {
    audit_id: newId('evt'),
    actor_type: doer.type,
    actor_id: doer.id,
    actor_email: doer.email || null,
    address: doer.address || null,
    actor_key_id: doer.keyId ?? null,
    action: change.action,
    merchant_id: change.merchantId,
    target: change.target,
    outcome: change.outcome ?? 'succeeded',
    detail: change.detail,
    service: 'dashboard',
    correlation_id: newId('cmd'),
    at,
  };
  await enqueue(db, [{ id: entry.audit_id, type: 'audit.recorded', version: 1, occurred_at: at, correlation_id: entry.correlation_id, data: entry }]);
}

/**
 * Runs a change the owning service does not audit itself (an API command sent
 * for a dashboard user, a refund) and records it in the audit log with its
 * outcome, refused or not (D14).
 */
export async function audited<T>(deps: Pick<AccountsDeps, 'pool' | 'afterCommit'>, doer: Doer, change: Change, work: () => Promise<T>): Promise<T> {
  const record = async (outcome: string) => {
    await recordAudit(deps.pool, doer, { ...change, outcome });
    deps.afterCommit();
  };
  let result: T;
  try {
    result = await work();
  } catch (err) {
    await record(err instanceof AppError ? err.code : 'internal-error');
    throw err;
  }
  await record('succeeded');
  return result;
}
