/**
 * The audit log (D14, D15, D17), kept here for the whole system: entries come
 * as audit.recorded events from the services that ran the actions, and are
 * read newest first.
 */
import type { AuditEntry } from '@gateway/contracts';
import type { Pool, Queryable } from '@gateway/db';

interface AuditRow extends Omit<AuditEntry, 'at'> {
  at: Date;
}

const DEFAULT_LIMIT = 50;

export class AuditLogRepository {
  constructor(private readonly pool: Pool) {}

  /** Stores `entry` once: a redelivered event changes nothing. */
  async record(db: Queryable, entry: AuditEntry): Promise<void> {
    await db.query(
      `INSERT INTO audit_log (audit_id, actor_type, actor_id, actor_key_id, action, merchant_id, target, outcome, detail, service, correlation_id, at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
       ON CONFLICT (audit_id) DO NOTHING`,
      [
        entry.audit_id,
        entry.actor_type,
        entry.actor_id,
        entry.actor_key_id,
        entry.action,
        entry.merchant_id,
        entry.target,
        entry.outcome,
        JSON.stringify(entry.detail),
        entry.service,
        entry.correlation_id,
        entry.at,
      ],
    );
  }

  /** The latest `limit` entries, of one merchant or of all, newest first. */
  async list(query: { merchant_id?: string; limit?: number }): Promise<AuditEntry[]> {
    const limit = query.limit ?? DEFAULT_LIMIT;
    const columns = 'audit_id, actor_type, actor_id, actor_key_id, action, merchant_id, target, outcome, detail, service, correlation_id, at';
    const order = 'ORDER BY at DESC, audit_id DESC';
    const { rows } = query.merchant_id
      ? await this.pool.query<AuditRow>(`SELECT ${columns} FROM audit_log WHERE merchant_id = $1 ${order} LIMIT $2`, [query.merchant_id, limit])
      : await this.pool.query<AuditRow>(`SELECT ${columns} FROM audit_log ${order} LIMIT $1`, [limit]);
    return rows.map((row) => ({ ...row, at: row.at.toISOString() }));
  }
}
