/**
 * The gateway's events: each change its event consumer applies, the events
 * that announce it, and what each event carries of it; the use case that
 * applies it is in domain/.
 */
import type { AuditEntry } from '@gateway/contracts';
import type { AnyChange, Change } from '@gateway/messaging';
import type { AuditLogRepository } from '../db/audit-log.repository.js';
import { recordAuditEntry } from '../domain/audit-log.js';

/** The changes the event consumer applies, whichever event of theirs arrives. */
export function gatewayEvents(auditLog: AuditLogRepository): AnyChange[] {
  // Keyed on the entry's id (apply-once): a redelivered event changes nothing.
  const auditEntries: Change<'audit.recorded', AuditEntry, true> = {
    name: 'audit-entry',
    events: ['audit.recorded'],
    fromEvent: (entry) => entry,
    apply: (entry) => recordAuditEntry(auditLog, entry),
  };
  return [auditEntries];
}
