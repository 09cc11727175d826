/**
 * What went wrong with an outgoing request, in a few words: a kind to act on,
 * the underlying error code, and whether the request may have reached the
 * server. Never the error's own text, which may quote the request.
 */
import { ADDRESS_NOT_ALLOWED } from './address-guard.js';

export type HttpClientErrorKind =
  | 'invalid-url'
  | 'invalid-request'
  | 'address-not-allowed'
  | 'dns'
  | 'connect'
  | 'timeout'
  | 'closed-before-response'
  | 'interrupted'
  | 'invalid-response'
  | 'aborted'
  | 'client-closed';

/** The answer as far as it came, when the failure came after its headers. */
export interface PartialAnswer {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export class HttpClientError extends Error {
  constructor(
    readonly kind: HttpClientErrorKind,
    message: string,
    /** True unless the request surely never reached the server (refused connection, no address, bad input). */
    readonly mayHaveReached: boolean,
    /** The underlying error code (`ECONNREFUSED`, `UND_ERR_SOCKET`, `HPE_INVALID_CONSTANT`...). */
    readonly code?: string,
    readonly answer?: PartialAnswer,
  ) {
    super(message);
    this.name = 'HttpClientError';
  }
}

const CONNECTION_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection reset',
  ETIMEDOUT: 'connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EHOSTDOWN: 'host unreachable',
  EADDRNOTAVAIL: 'address not available',
};

const DNS_ERRORS = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NODATA', 'EAI_NONAME']);

/** Where the request stood when it failed. */
export interface FailureContext {
  /** The deadline's own error, when it had passed. */
  timedOut?: HttpClientError | undefined;
  /** Whether the caller's signal had aborted the request. */
  aborted?: boolean;
  answer?: PartialAnswer;
}

/** Any failure of a request as an HttpClientError. */
export function toHttpClientError(err: unknown, context: FailureContext): HttpClientError {
  const { answer } = context;
  const make = (kind: HttpClientErrorKind, message: string, mayHaveReached: boolean, code?: string): HttpClientError =>
    new HttpClientError(kind, message, mayHaveReached, code, answer);
  // Past the deadline, whatever undici made of the abort, the request timed out.
  if (context.timedOut) return make('timeout', context.timedOut.message, true, context.timedOut.code);
  if (context.aborted) return make('aborted', 'request aborted', true);
  if (err instanceof HttpClientError) return answer && !err.answer ? make(err.kind, err.message, err.mayHaveReached, err.code) : err;
  const code = errorCode(err);
  if (code === ADDRESS_NOT_ALLOWED) return make('address-not-allowed', (err as Error).message, false, code);
  if (code === undefined) return make('connect', 'connection error', true);
  if (DNS_ERRORS.has(code)) return make('dns', 'DNS lookup failed', false, code);
  if (code === 'UND_ERR_ABORTED' || code === 'ABORT_ERR' || (err as Error).name === 'AbortError') return make('aborted', 'request aborted', true, code);
  // undici says so of requests it had taken when the client was closed: written to the socket, or maybe
  // (a queued one cannot be told apart). A request sent after close never reaches undici (dispatch refuses it).
  if (code === 'UND_ERR_CLOSED' || code === 'UND_ERR_DESTROYED') return make('client-closed', 'client closed', true, code);
  if (code === 'UND_ERR_INVALID_ARG' || code === 'UND_ERR_NOT_SUPPORTED') return make('invalid-request', 'invalid request', false, code);
  if (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH') {
    return answer
      ? make('interrupted', 'connection lost while reading the response', true, code)
      : make('closed-before-response', code === 'UND_ERR_SOCKET' ? 'connection closed before a response' : (CONNECTION_ERRORS[code] ?? 'connection error'), true, code);
  }
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') return make('timeout', 'timed out', true, code);
  if (code.startsWith('HPE_') || code === 'UND_ERR_INFO' || code === 'UND_ERR_RESPONSE_EXCEEDED_MAX_SIZE') return make('invalid-response', `invalid HTTP response (${code})`, true, code);
  const known = CONNECTION_ERRORS[code];
  // A refused connection never carried the request; other connection failures may have.
  if (known) return make('connect', known, code !== 'ECONNREFUSED', code);
  if (code.startsWith('ERR_TLS_') || code.startsWith('ERR_SSL_') || code.includes('CERT') || code.includes('SIGNATURE')) return make('connect', `TLS error (${code})`, true, code);
  return make('connect', `connection error (${code})`, true, code);
}

function errorCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}
