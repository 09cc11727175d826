/**
 * Structured JSON logs shared by every service. Secrets and card data are
 * redacted by key name, at any depth, before a line is written.
 */
import { pino, type Logger } from 'pino';
import { currentCorrelationId } from './correlation.js';
import { currentTraceId } from './tracing.js';

export * from './correlation.js';

export type { Logger } from 'pino';

/**
 * Keys whose values never reach a log line, wherever they stand in it. A key
 * matches whatever its case and separators: `Authorization`, `cardNumber`,
 * `card-number` and the acquirer form's `$PAN` are caught as `authorization`,
 * `card_number` and `pan`.
 */
const SECRET_KEYS: ReadonlySet<string> = new Set([
  'authorization',
  'x-service-signature',
  'secret_key',
  'test_secret_key',
  'live_secret_key',
  'webhook_secret',
  'secret',
  'previous_secret',
  'password',
  'card',
  'pan',
  'card_number',
  'cvc',
  'cvv',
  'expiry',
  'cardholder_name',
]);

/** A key as SECRET_KEYS are compared: lower case, letters and digits only. */
const normalise = (key: string) => key.toLowerCase().replace(/[^a-z0-9]/g, '');
const SECRET_NORMALISED: ReadonlySet<string> = new Set([...SECRET_KEYS].map(normalise));

/**
 * Whether each key seen so far is secret: the keys of log lines come from the
 * code, so this stays small and spares normalising a key on every line.
 * Cleared if it ever grows past its bound.
 */
const verdicts = new Map<string, boolean>();
const VERDICTS_BOUND = 10_000;

function isSecretKey(key: string): boolean {
  let secret = verdicts.get(key);
  if (secret === undefined) {
    if (verdicts.size >= VERDICTS_BOUND) verdicts.clear();
    secret = SECRET_NORMALISED.has(normalise(key));
    verdicts.set(key, secret);
  }
  return secret;
}

const CENSOR = '[redacted]';
/** Deeper than any line the services write; anything below is left as it is. */
const MAX_DEPTH = 8;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * `value` with the value of every key matching SECRET_KEYS replaced, in plain
 * objects and arrays at any depth; the very same value when it holds none,
 * found without copying (the usual case).
 */
export function redactSecrets<T>(value: T, depth = 0): T {
  if (depth > MAX_DEPTH) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((item: unknown, i) => {
      const next = redactSecrets(item, depth + 1);
      if (next !== item) (copy ??= [...(value as unknown[])])[i] = next;
    });
    return (copy ?? value) as T;
  }
  if (!isPlainObject(value)) return value;
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(value)) {
    const inner = value[key];
    const next = isSecretKey(key) ? CENSOR : redactSecrets(inner, depth + 1);
    if (next !== inner) (copy ??= { ...value })[key] = next;
  }
  return (copy ?? value) as T;
}

export interface LoggerOptions {
  service: string;
  level?: string;
  /** Where lines go; standard output by default. */
  destination?: NodeJS.WritableStream;
}

/** A pino logger named after the service, with secrets redacted and ISO timestamps. */
export function createLogger({ service, level = 'info', destination }: LoggerOptions): Logger {
  const logger = pino(
    {
      name: service,
      level,
      base: { service },
      timestamp: pino.stdTimeFunctions.isoTime,
      // By key name rather than pino's redact paths: as thorough, and pino's wildcard paths cost five times a plain line.
      formatters: { level: (label) => ({ level: label }), log: (object) => redactSecrets(object) },
      // Every line written while a payment or a call is handled names it.
      // With tracing on, the trace id too (one check of a variable when off).
      mixin: () => {
        const correlationId = currentCorrelationId();
        const traceId = currentTraceId();
        if (traceId === undefined) return correlationId === undefined ? {} : { correlationId };
        return correlationId === undefined ? { traceId } : { correlationId, traceId };
      },
    },
    destination ?? pino.destination({ sync: false, minLength: LOG_BUFFER_BYTES, periodicFlush: LOG_FLUSH_MS }),
  );
  // A child's bindings are written into every line of it but never pass the log
  // formatter (pino resets the bindings formatter for children): they are
  // redacted as the child is made. Children inherit this, so grandchildren too.
  const makeChild = logger.child;
  logger.child = function (this: Logger, bindings: Parameters<Logger['child']>[0], options?: Parameters<Logger['child']>[1]) {
    return makeChild.call(this, redactSecrets(bindings), options);
  } as Logger['child'];
  return logger;
}

/**
 * Lines are written in blocks of about this many bytes, not one write each:
 * under load a service writes a few hundred lines a second, and every write
 * costs a system call and wakes the reader of standard output.
 */
const LOG_BUFFER_BYTES = 4096;
/** A line waits at most this long for its block to fill; pino writes what is left when the process exits. */
const LOG_FLUSH_MS = 200;

export * from './errors.js';
export * from './tracing.js';
export * from './metrics.js';
