/**
 * Structured JSON logs shared by every service. Secrets and card data are
 * redacted by path before a line is written.
 */
import { pino, type Logger } from 'pino';
import { currentCorrelationId } from './correlation.js';

export * from './correlation.js';

export type { Logger } from 'pino';

/** Paths whose values never reach a log line. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'headers.authorization',
  'authorization',
  '*.authorization',
  'secret_key',
  '*.secret_key',
  'test_secret_key',
  'live_secret_key',
  '*.test_secret_key',
  '*.live_secret_key',
  'webhook_secret',
  '*.webhook_secret',
  'secret',
  '*.secret',
  'previousSecret',
  '*.previousSecret',
  'headers["x-service-signature"]',
  '*.headers["x-service-signature"]',
  'password',
  '*.password',
  'card',
  '*.card',
  'pan',
  '*.pan',
  'card_number',
  '*.card_number',
];

export interface LoggerOptions {
  service: string;
  level?: string;
  /** Where lines go; standard output by default. */
  destination?: NodeJS.WritableStream;
}

/** A pino logger named after the service, with redaction and ISO timestamps. */
export function createLogger({ service, level = 'info', destination }: LoggerOptions): Logger {
  return pino(
    {
      name: service,
      level,
      base: { service },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      // Every line written while a payment or a call is handled names it.
      mixin: () => {
        const correlationId = currentCorrelationId();
        return correlationId === undefined ? {} : { correlationId };
      },
    },
    destination ?? pino.destination({ sync: false, minLength: LOG_BUFFER_BYTES, periodicFlush: LOG_FLUSH_MS }),
  );
}

/**
 * Lines are written in blocks of about this many bytes, not one write each:
 * under load a service writes a few hundred lines a second, and every write
 * costs a system call and wakes the reader of standard output.
 */
const LOG_BUFFER_BYTES = 4096;
/** A line waits at most this long for its block to fill; pino writes what is left when the process exits. */
const LOG_FLUSH_MS = 200;

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

export * from './metrics.js';
