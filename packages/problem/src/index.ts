/**
 * The error catalogue (INTERFACE 7.1 plus the types DECISIONS adds) and the one
 * place that turns an error into an RFC 9457 problem document.
 */

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

interface CatalogueEntry {
  readonly status: number;
  readonly title: string;
  readonly detail: string;
}

export const catalogue = {
  unauthorized: { status: 401, title: 'Unauthorized', detail: 'Invalid or expired API key.' },
  /** D17: an operator command without a valid operator signature; the detail says what was wrong with it. */
  'operator-unauthorized': { status: 401, title: 'Operator Unauthorized', detail: 'The operator command does not carry a valid operator signature.' },
  forbidden: { status: 403, title: 'Forbidden', detail: 'This account is not allowed to perform this request.' },
  'not-found': { status: 404, title: 'Not Found', detail: 'The requested resource does not exist.' },
  'method-not-allowed': { status: 405, title: 'Method Not Allowed', detail: 'This method is not allowed on this resource.' },
  conflict: { status: 409, title: 'Conflict', detail: 'The request conflicts with the current state of the resource.' },
  'session-terminal': { status: 409, title: 'Session Terminal', detail: 'The session is already in a terminal state.' },
  'payload-too-large': { status: 413, title: 'Payload Too Large', detail: 'The request body is larger than 64 KiB.' },
  'validation-error': { status: 422, title: 'Validation Error', detail: 'The request failed validation; see errors for each field.' },
  'checkout-limit-exceeded': { status: 422, title: 'Checkout Limit Exceeded', detail: 'The session already has the maximum number of active checkout links.' },
  'invalid-state': { status: 422, title: 'Invalid State', detail: "The operation is not allowed in the session's current state." },
  'no-payment': { status: 422, title: 'No Payment', detail: 'No successful payment was found to act on.' },
  'refund-failed': { status: 422, title: 'Refund Failed', detail: 'The refund could not be completed.' },
  /** D22: the acquirer refused to capture the authorized amount; the session stays AUTHORIZED. */
  'capture-failed': { status: 422, title: 'Capture Failed', detail: 'The capture could not be completed.' },
  'no-terminal-configured': { status: 422, title: 'No Terminal Configured', detail: 'The account has no acquirer terminal configured for this mode.' },
  'terminal-inactive': { status: 422, title: 'Terminal Inactive', detail: "The account's acquirer terminal is inactive." },
  'terminal-rejected': { status: 422, title: 'Terminal Rejected', detail: 'The acquirer rejected the terminal credentials.' },
  'idempotency-key-reused': { status: 422, title: 'Idempotency Key Reused', detail: 'This Idempotency-Key was already used with a different request.' },
  'rate-limit-exceeded': { status: 429, title: 'Too Many Requests', detail: 'Rate limit exceeded; retry after the number of seconds in Retry-After.' },
  'internal-error': { status: 500, title: 'Internal Server Error', detail: 'An unexpected error occurred; retry with backoff.' },
  'processor-unavailable': { status: 502, title: 'Processor Unavailable', detail: 'The payment processor is unreachable or timed out; retry with backoff.' },
} as const satisfies Record<string, CatalogueEntry>;

export type ProblemCode = keyof typeof catalogue;

export function isProblemCode(value: unknown): value is ProblemCode {
  return typeof value === 'string' && Object.hasOwn(catalogue, value);
}

/** One failing field of a validation problem (INTERFACE 2.7). */
export interface FieldError {
  readonly field: string;
  readonly code: string;
  readonly message: string;
}

/** Extra members a problem may carry, such as `existing_session_id`. */
export type ProblemExtensions = Readonly<Record<string, string | number | boolean>>;

/**
 * The one error type of the system: a stable catalogue code, a detail meant for
 * the merchant, and optional field errors and extension members. Anything thrown
 * that is not an AppError becomes an `internal-error` that leaks nothing.
 */
export class AppError extends Error {
  readonly detail: string;
  constructor(
    readonly code: ProblemCode,
    detail?: string,
    readonly extensions: ProblemExtensions = {},
    readonly errors: readonly FieldError[] = [],
  ) {
    super(detail ?? catalogue[code].detail);
    this.name = 'AppError';
    this.detail = detail ?? catalogue[code].detail;
  }

  get status(): number {
    return catalogue[this.code].status;
  }

  /** The serialisable form carried in RPC replies. */
  toWire(): WireProblem {
    const wire: WireProblem = { code: this.code, detail: this.detail };
    if (this.errors.length > 0) wire.errors = this.errors;
    if (Object.keys(this.extensions).length > 0) wire.extensions = this.extensions;
    return wire;
  }

  static fromWire(wire: WireProblem): AppError {
    return new AppError(wire.code, wire.detail, wire.extensions ?? {}, wire.errors ?? []);
  }
}

export interface WireProblem {
  code: ProblemCode;
  detail: string;
  errors?: readonly FieldError[];
  extensions?: ProblemExtensions;
}

/** The detail of a 500 answered while a dependency (the database, the broker) is out (D23). */
export const TEMPORARILY_UNAVAILABLE = 'The service is temporarily unavailable; retry after the number of seconds in Retry-After.';

/**
 * The 500 `internal-error` answered while the database or the broker cannot be
 * reached (D23): retryable, with a pause of 1 to 5 seconds, drawn at random so
 * that the clients of one outage do not all come back in the same second.
 */
export function temporarilyUnavailable(retryAfterSeconds = 1 + Math.floor(Math.random() * 5)): AppError {
  return new AppError('internal-error', TEMPORARILY_UNAVAILABLE, { retry_after: retryAfterSeconds });
}

/** The seconds a problem asks its client to wait (its Retry-After header), when it asks. */
export function retryAfterOf(err: unknown): number | undefined {
  const seconds = err instanceof AppError ? err.extensions['retry_after'] : undefined;
  return typeof seconds === 'number' && Number.isInteger(seconds) && seconds > 0 ? seconds : undefined;
}

/** What `work` answers, or undefined when it is refused as not-found (a read of what may not exist); any other failure is thrown. */
export async function unlessNotFound<T>(work: Promise<T>): Promise<T | undefined> {
  try {
    return await work;
  } catch (err) {
    if (err instanceof AppError && err.code === 'not-found') return undefined;
    throw err;
  }
}

/** A 422 validation-error with one entry per failing field. */
export function validationError(errors: readonly FieldError[]): AppError {
  return new AppError('validation-error', undefined, {}, errors);
}

export interface ProblemDocument {
  type: string;
  title: string;
  status: number;
  detail: string;
  errors?: readonly FieldError[];
  [extension: string]: unknown;
}

/** `https://<host>/errors/<code>`, the type URI of a catalogue entry. */
function problemType(code: ProblemCode, errorsHost: string): string {
  return `https://${errorsHost}/errors/${code}`;
}

/**
 * Turns anything thrown into a problem document. Member order is fixed
 * (type, title, status, detail, then errors and extensions) so that bodies are
 * byte-for-byte stable.
 */
export function toProblem(err: unknown, errorsHost: string): ProblemDocument {
  const appError = err instanceof AppError ? err : new AppError('internal-error');
  const entry = catalogue[appError.code];
  const doc: ProblemDocument = {
    type: problemType(appError.code, errorsHost),
    title: entry.title,
    status: entry.status,
    detail: appError.detail,
  };
  if (appError.code === 'validation-error') doc.errors = appError.errors;
  for (const [name, value] of Object.entries(appError.extensions)) {
    // The wait travels as the Retry-After header (retryAfterOf), not as a member.
    if (!(name in doc) && name !== 'retry_after') doc[name] = value;
  }
  return doc;
}
export * from './list-query.js';
