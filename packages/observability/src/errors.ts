/** Errors as they may be told: in a log line, a span's status. */

export interface ErrorSummary {
  name: string;
  message: string;
  code?: string;
  constraint?: string;
  table?: string;
}

/**
 * What may be logged of an error: its class, its code and, for errors that are
 * not the database's, its message. Database errors keep only their SQLSTATE and
 * the constraint or table they name: their text can quote row values. Stack
 * traces are never logged.
 */
export function describeError(err: unknown): ErrorSummary {
  if (!(err instanceof Error)) return { name: 'NonError', message: typeof err };
  const fields = err as Error & { code?: unknown; constraint?: unknown; table?: unknown; severity?: unknown };
  const fromDatabase = typeof fields.severity === 'string' && typeof fields.code === 'string';
  const summary: ErrorSummary = { name: err.name, message: fromDatabase ? 'database error' : err.message };
  if (typeof fields.code === 'string') summary.code = fields.code;
  if (fromDatabase && typeof fields.constraint === 'string') summary.constraint = fields.constraint;
  if (fromDatabase && typeof fields.table === 'string') summary.table = fields.table;
  return summary;
}
