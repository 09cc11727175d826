/**
 * Storage of the audit log (D14, D15, D17), kept here for the whole system:
 * each entry once, by its id, read newest first a page at a time.
 */
import type { AuditEntry } from '@gateway/contracts';
import type { Pool } from '@gateway/db';

interface AuditRow extends Omit<AuditEntry, 'at'> {
  at: Date;
}

const COLUMNS = 'audit_id, actor_type, actor_id, actor_email, address, actor_key_id, action, merchant_id, target, outcome, detail, service, correlation_id, at';

export class AuditLogRepository {
  constructor(private readonly pool: Pool) {}

  /** Stores `entry` once; false when it was stored already. */
  async record(entry: AuditEntry): Promise<boolean> {
    const result = await this.pool.query(
      `INSERT INTO audit_log (${COLUMNS})
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
       ON CONFLICT (audit_id) DO NOTHING`,
      [
        entry.audit_id,
        entry.actor_type,
        entry.actor_id,
        // Entries of services not yet sending these fields have none.
        entry.actor_email ?? null,
        entry.address ?? null,
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
    return result.rowCount === 1;
  }

  /** Whether `auditId` is an entry of the list of `merchantId` (of all merchants when undefined): a valid cursor of that list. */
  async isEntryOf(auditId: string, merchantId: string | undefined): Promise<boolean> {
    const cursor = await this.pool.query('SELECT 1 FROM audit_log WHERE audit_id = $1 AND ($2::text IS NULL OR merchant_id = $2)', [auditId, merchantId ?? null]);
    return cursor.rowCount !== 0;
  }

  /**
   * Up to `limit` entries of one merchant or of all, newest first, older than
   * the entry `before` when given. Each list is served by its index
   * (audit_log_by_merchant, audit_log_by_time), the cursor as a row
   * comparison on (at, audit_id).
   */
  async page(merchantId: string | undefined, before: string | undefined, limit: number): Promise<AuditEntry[]> {
    const where: string[] = [];
    const values: unknown[] = [];
    const param = (value: unknown) => {
      values.push(value);
      return `$${values.length}`;
    };
    if (merchantId !== undefined) where.push(`merchant_id = ${param(merchantId)}`);
    if (before !== undefined) where.push(`(at, audit_id) < (SELECT at, audit_id FROM audit_log WHERE audit_id = ${param(before)})`);
    const { rows } = await this.pool.query<AuditRow>(
      `SELECT ${COLUMNS} FROM audit_log ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY at DESC, audit_id DESC LIMIT ${param(limit)}`,
      values,
    );
    return rows.map((row) => ({ ...row, at: row.at.toISOString() }));
  }
}
