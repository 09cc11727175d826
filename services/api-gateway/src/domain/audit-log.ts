/**
 * The audit log (D14, D15, D17), kept here for the whole system: entries come
 * as audit.recorded events from the services that ran the actions, each
 * stored once (apply-once, keyed on the entry's id), and are read newest
 * first, a page at a time.
 */
import type { AuditEntry, CommandReply, CommandRequest } from '@gateway/contracts';
import { validationError } from '@gateway/problem';
import type { AuditLogRepository } from '../db/audit-log.repository.js';

const DEFAULT_LIMIT = 50;

/** Stores an entry once; true when this call stored it. */
export async function recordAuditEntry(auditLog: AuditLogRepository, entry: AuditEntry): Promise<true | undefined> {
  return (await auditLog.record(entry)) ? true : undefined;
}

/** audit.list: the entries of one merchant or of all, newest first, `limit` of them after the entry `before`, and whether more follow. */
export async function listAuditLog(auditLog: AuditLogRepository, query: CommandRequest<'audit.list'>): Promise<CommandReply<'audit.list'>> {
  const limit = query.limit ?? DEFAULT_LIMIT;
  // The cursor must be an entry of the same list: another merchant's says nothing here.
  if (query.before !== undefined && !(await auditLog.isEntryOf(query.before, query.merchant_id))) {
    throw validationError([{ field: 'before', code: 'invalid', message: 'before must be the audit_id of an entry of this list.' }]);
  }
  const entries = await auditLog.page(query.merchant_id, query.before, limit + 1);
  return { data: entries.slice(0, limit), has_more: entries.length > limit };
}
