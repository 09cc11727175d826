/**
 * Every failure the SDK reports is a GatewayError: an API answer carries its
 * problem document (RFC 9457, INTERFACE 7) whole, and the subclass tells the
 * class of error, so callers branch with instanceof and never parse `detail`.
 */

/** One entry of a validation problem's `errors` (INTERFACE 7.2). */
export interface FieldError {
  field: string;
  code: string;
  message: string;
}

/** The problem document the API answered with; unknown members are kept (INTERFACE 9.4). */
export interface ProblemDocument {
  type: string;
  title: string;
  status: number;
  detail: string;
  errors?: FieldError[];
  existing_session_id?: string;
  [member: string]: unknown;
}

export interface GatewayErrorInit {
  status?: number;
  problem?: ProblemDocument;
  requestId?: string;
  cause?: unknown;
}

/** An error from the gateway or from reaching it. */
export class GatewayError extends Error {
  /** The HTTP status; undefined when no answer arrived. */
  readonly status: number | undefined;
  /** The problem's type URI, for example https://pay.example.tn/errors/validation-error. */
  readonly type: string | undefined;
  /** The type's last path segment (validation-error, not-found, ...): the stable code to branch on. */
  readonly code: string | undefined;
  readonly title: string | undefined;
  readonly detail: string | undefined;
  /** Every field error of a validation problem; empty otherwise. */
  readonly errors: readonly FieldError[];
  /** The X-Request-Id of the failed call, for support. */
  readonly requestId: string | undefined;
  /** The problem document as received. */
  readonly problem: ProblemDocument | undefined;

  constructor(message: string, init: GatewayErrorInit = {}) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = new.target.name;
    this.status = init.status ?? init.problem?.status;
    this.problem = init.problem;
    this.type = init.problem?.type;
    this.code = init.problem?.type?.split('/').pop();
    this.title = init.problem?.title;
    this.detail = init.problem?.detail;
    this.errors = Array.isArray(init.problem?.errors) ? init.problem.errors : [];
    this.requestId = init.requestId;
  }
}

/** 401: the key is missing, malformed, expired or revoked. */
export class AuthenticationError extends GatewayError {}
/** 403: the key may not do this (a suspended account, a live key on a test-only endpoint). */
export class PermissionError extends GatewayError {}
/** 404: no such resource for this account and mode. */
export class NotFoundError extends GatewayError {}
/** 409: the call conflicts with the resource's state (conflict, such as a capture under way; session-terminal). */
export class ConflictError extends GatewayError {}
/** 422 validation-error: see `errors` for every field at fault. */
export class ValidationError extends GatewayError {}
/** 422 other than validation (invalid-state, no-payment, refund-failed, capture-failed, ...): the request was well formed but refused. */
export class InvalidRequestError extends GatewayError {}
/** 429 after every retry: `retryAfterSeconds` says how long the API asked to wait. */
export class RateLimitError extends GatewayError {
  constructor(
    message: string,
    init: GatewayErrorInit,
    readonly retryAfterSeconds: number | undefined,
  ) {
    super(message, init);
  }
}
/** 5xx: a 500 or 502 after every retry, any other at once. */
export class ApiServerError extends GatewayError {}
/** No answer (refused, reset, timed out) after every retry. */
export class ConnectionError extends GatewayError {}
/** A webhook whose signature, timestamp or body does not verify. */
export class SignatureVerificationError extends GatewayError {}

/** The error for an API answer of `status` carrying `problem`. */
export function errorFor(status: number, problem: ProblemDocument, requestId: string | undefined, retryAfterSeconds: number | undefined): GatewayError {
  const message = `${problem.title} (${status}): ${problem.detail}`;
  const init = { status, problem, requestId };
  if (status === 401) return new AuthenticationError(message, init);
  if (status === 403) return new PermissionError(message, init);
  if (status === 404) return new NotFoundError(message, init);
  if (status === 409) return new ConflictError(message, init);
  if (status === 422) return problem.type.endsWith('/validation-error') ? new ValidationError(message, init) : new InvalidRequestError(message, init);
  if (status === 429) return new RateLimitError(message, init, retryAfterSeconds);
  if (status >= 500) return new ApiServerError(message, init);
  return new GatewayError(message, init);
}

/** The body as a problem document; an answer that is not one (a proxy's HTML page) still becomes a typed error. */
export function asProblem(body: unknown, status: number): ProblemDocument {
  if (typeof body === 'object' && body !== null && typeof (body as ProblemDocument).type === 'string') return body as ProblemDocument;
  return { type: 'about:blank', title: 'Unexpected answer', status, detail: `The gateway answered ${status} without a problem document.` };
}
