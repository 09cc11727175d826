/**
 * The API's JSON request body: at most 64 KiB (413 beyond, D1), read by
 * fastify (its body limit, its decoding), parsed here as JSON whatever type
 * the client declared, then held to what the API takes: an object, nested at
 * most 32 levels (D29, checked first: JSON.parse does not recurse, everything
 * after it may), with no `__proto__` key nor NUL character at any depth
 * (422), before anything is sent on. A route that takes no body is sent none.
 */
import { findNulCharacter, findProtoKey, isJsonObject, NOT_A_JSON_OBJECT, protoKeyError, tooDeepError, tooDeepFields } from '@gateway/contracts';
import { AppError, validationError } from '@gateway/problem';
import { otherCharsetThanUtf8 } from '@gateway/runtime';

export const MAX_BODY_BYTES = 64 * 1024;

/**
 * The object a body's text holds, or the problem of a body that is not an
 * object fit to pass on. `text` is undefined when the request carried no body;
 * `contentType` is the request's header. The body is read as UTF-8 (fastify
 * decodes it so): one declaring another charset is not JSON the API takes,
 * rather than text whose letters would be replaced (U+FFFD) and stored so; a
 * leading byte order mark is dropped, as express's reader did.
 */
export function jsonObjectBody(text: string | undefined, contentType?: string): object {
  if (otherCharsetThanUtf8(contentType) !== undefined) throw notJson();
  if (text?.startsWith('\ufeff')) text = text.slice(1);
  if (!text) throw notJson();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw notJson();
  }
  if (!isJsonObject(value)) throw validationError([NOT_A_JSON_OBJECT]);
  const tooDeep = tooDeepFields(value);
  if (tooDeep.length > 0) throw validationError(tooDeep.map(tooDeepError));
  const poisoned = findProtoKey(value);
  if (poisoned !== undefined) throw validationError([protoKeyError(poisoned)]);
  const nul = nulProblem(value);
  if (nul) throw nul;
  return value;
}

/**
 * Whether a route that takes no body (D29) was sent one: anything but no
 * body at all or an empty JSON object, which carries nothing and which some
 * HTTP clients send on every POST.
 */
export function carriesBody(text: string | undefined): boolean {
  return text !== undefined && text !== '' && !EMPTY_OBJECT.test(text);
}

const EMPTY_OBJECT = /^\ufeff?\s*\{\s*\}\s*$/;

/** The refusal of a body sent to a route that takes none. */
export function unwantedBodyProblem(): AppError {
  return validationError([{ field: 'body', code: 'invalid', message: 'This endpoint takes no request body; send none.' }]);
}

/** A validation problem naming the first field of `value` (a body or a query) that holds a NUL character. */
export function nulProblem(value: unknown): AppError | undefined {
  const field = findNulCharacter(value);
  return field === undefined ? undefined : validationError([{ field, code: 'invalid', message: `${field} must not contain a NUL character.` }]);
}

/**
 * The problem for what fastify refused while reading a body: too large is 413
 * (D1), anything else it could not read (a malformed Content-Type or
 * Content-Length, a body cut short, a client gone before its body ended) is
 * not a JSON body (422), a client's doing, as express's reader had it: never
 * a 500 logged as the gateway's failure. Undefined for other errors.
 */
export function bodyProblem(err: unknown): AppError | undefined {
  const { code, statusCode } = (err ?? {}) as { code?: unknown; statusCode?: unknown };
  // fastify's body reader passes on the request's own error, marked 400: Node's "aborted" when the client went.
  const cutOff = code === 'ECONNRESET' && statusCode === 400;
  if (!cutOff && (typeof code !== 'string' || !code.startsWith('FST_ERR_CTP_'))) return undefined;
  return code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? new AppError('payload-too-large') : notJson();
}

function notJson(): AppError {
  return validationError([{ field: 'body', code: 'invalid', message: 'The request body must be valid JSON.' }]);
}
