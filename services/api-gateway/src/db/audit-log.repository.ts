/**
 * The audit log (D14, D15, D17), kept here for the whole system: entries come
 * as audit.recorded events from the services that ran the actions, and are
 * read newest first, a page at a time.
 */
import type { AuditEntry, CommandReply, CommandRequest } from '@gateway/contracts';
import type { Change } from '@gateway/messaging';
import type { Pool } from '@gateway/db';
import { validationError } from '@gateway/problem';

interface AuditRow extends Omit<AuditEntry, 'at'> {
  at: Date;
}

const DEFAULT_LIMIT = 50;
const COLUMNS = 'audit_id, actor_type, actor_id, actor_email, address, actor_key_id, action, merchant_id, target, outcome, detail, service, correlation_id, at';

export class AuditLogRepository {
  constructor(private readonly pool: Pool) {}

  /** The entries as a change keyed on the entry's id (apply-once): a redelivered event changes nothing. */
  readonly entries: Change<'audit.recorded', AuditEntry, true> = {
    name: 'audit-entry',
    events: ['audit.recorded'],
    fromEvent: (entry) => entry,
    apply: async (entry) => ((await this.record(entry)) ? true : undefined),
  };

  /** Stores `entry` once; false when it was stored already. */
  private async record(entry: AuditEntry): Promise<boolean> {
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

  /**
   * The entries of one merchant or of all, newest first: `limit` of them,
   * older than the entry `before` when given (the next page), and whether
   * more follow. Each list is served by its index (audit_log_by_merchant,
   * audit_log_by_time), the cursor as a row comparison on (at, audit_id).
   */
  async list(query: CommandRequest<'audit.list'>): Promise<CommandReply<'audit.list'>> {
    const limit = query.limit ?? DEFAULT_LIMIT;
    const where: string[] = [];
    const values: unknown[] = [];
    const param = (value: unknown) => {
      values.push(value);
      return `$${values.length}`;
    };
    if (query.merchant_id !== undefined) where.push(`merchant_id = ${param(query.merchant_id)}`);
    if (query.before !== undefined) {
      // The cursor must be an entry of the same list: another merchant's says nothing here.
      const cursor = await this.pool.query('SELECT 1 FROM audit_log WHERE audit_id = $1 AND ($2::text IS NULL OR merchant_id = $2)', [query.before, query.merchant_id ?? null]);
      if (cursor.rowCount === 0) throw validationError([{ field: 'before', code: 'invalid', message: 'before must be the audit_id of an entry of this list.' }]);
      where.push(`(at, audit_id) < (SELECT at, audit_id FROM audit_log WHERE audit_id = ${param(query.before)})`);
    }
    const { rows } = await this.pool.query<AuditRow>(
      `SELECT ${COLUMNS} FROM audit_log ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY at DESC, audit_id DESC LIMIT ${param(limit + 1)}`,
      values,
    );
    return { data: rows.slice(0, limit).map((row) => ({ ...row, at: row.at.toISOString() })), has_more: rows.length > limit };
  }
}
