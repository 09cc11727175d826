/**
 * The API's JSON request body: at most 64 KiB (413 beyond, D1), read by
 * express's parser, then held to what the API takes: an object, with no
 * `__proto__` key nor NUL character at any depth (422), before anything is
 * sent on.
 */
import type { RequestHandler } from 'express';
import { findNulCharacter, findProtoKey } from '@gateway/contracts';
import { AppError, validationError } from '@gateway/problem';
import { bodyRefusal, jsonBody } from '@gateway/runtime';

export const MAX_BODY_BYTES = 64 * 1024;

/** Reads the body (req.body) and refuses any that is not a JSON object the API may pass on. */
export function jsonObjectBody(limit = MAX_BODY_BYTES): RequestHandler[] {
  return [jsonBody(limit), (req, _res, next) => next(objectProblem(req.body))];
}

/** The problem of a body that is not an object fit to pass on; undefined for one that is. */
function objectProblem(value: unknown): AppError | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return validationError([{ field: 'body', code: 'invalid', message: 'The request body must be a JSON object.' }]);
  }
  const poisoned = findProtoKey(value);
  if (poisoned !== undefined) return validationError([{ field: poisoned, code: 'invalid', message: '__proto__ is not an allowed key.' }]);
  return nulProblem(value);
}

/** A validation problem naming the first field of `value` (a body or a query) that holds a NUL character. */
export function nulProblem(value: unknown): AppError | undefined {
  const field = findNulCharacter(value);
  return field === undefined ? undefined : validationError([{ field, code: 'invalid', message: `${field} must not contain a NUL character.` }]);
}

/**
 * The problem for what the body parser refused: too large is 413 (D1), and
 * anything else it could not read (not JSON, empty, a charset or encoding it
 * does not take) is not a JSON body (422); undefined for other errors.
 */
export function bodyProblem(err: unknown): AppError | undefined {
  const refused = bodyRefusal(err);
  if (!refused) return undefined;
  if (refused.status === 413) return new AppError('payload-too-large');
  return validationError([{ field: 'body', code: 'invalid', message: 'The request body must be valid JSON.' }]);
}
