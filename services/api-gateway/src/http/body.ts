/**
 * Reading a JSON request body: at most 64 KiB (413 beyond, D1), valid JSON, an
 * object, and no `__proto__` key nor NUL character at any depth (422), before
 * anything is sent on.
 */
import type { IncomingMessage } from 'node:http';
import { findNulCharacter, findProtoKey } from '@gateway/contracts';
import { AppError, validationError } from '@gateway/problem';

export const MAX_BODY_BYTES = 64 * 1024;

export async function readJsonObject(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Record<string, unknown>> {
  const declared = Number(req.headers['content-length'] ?? '0');
  if (declared > limit) throw new AppError('payload-too-large');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new AppError('payload-too-large');
    chunks.push(chunk);
  }
  let value: unknown;
  try {
    value = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw validationError([{ field: 'body', code: 'invalid', message: 'The request body must be valid JSON.' }]);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw validationError([{ field: 'body', code: 'invalid', message: 'The request body must be a JSON object.' }]);
  }
  const poisoned = findProtoKey(value);
  if (poisoned !== undefined) {
    throw validationError([{ field: poisoned, code: 'invalid', message: '__proto__ is not an allowed key.' }]);
  }
  refuseNulCharacter(value);
  return value as Record<string, unknown>;
}

/** A validation problem naming the first field of `value` (a body or a query) that holds a NUL character. */
export function refuseNulCharacter(value: unknown): void {
  const field = findNulCharacter(value);
  if (field !== undefined) throw validationError([{ field, code: 'invalid', message: `${field} must not contain a NUL character.` }]);
}
