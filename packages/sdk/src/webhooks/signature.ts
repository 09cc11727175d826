/**
 * Signing and verification of the X-Service-Signature webhook header.
 * Depends on node:crypto only, because merchants install it in their own receivers.
 *
 * Verify the exact bytes received: parsing the body as JSON and serialising it again
 * changes whitespace, key order or number formatting, and the signature no longer matches.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Five minutes bounds how long a captured delivery can be replayed while allowing modest clock skew. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/** A parsed header; signatures keeps every v1 value in header order so a rotation's two secrets both count. */
export interface ParsedSignatureHeader {
  timestamp: number;
  signatures: string[];
}

// Canonical decimal only: a leading zero or sign would make the signed "t" text differ from String(t).
const TIMESTAMP_FORMAT = /^(?:0|[1-9][0-9]*)$/;
// Exactly what computeSignature emits; uppercase is refused so there is one accepted spelling per signature.
const SIGNATURE_FORMAT = /^[0-9a-f]{64}$/;

function assertTimestamp(timestamp: number): void {
  // Negative or fractional seconds would produce a "t" that no verifier accepts.
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) {
    throw new RangeError(`timestamp must be a non-negative integer number of Unix seconds, got ${String(timestamp)}`);
  }
}

function assertSecret(secret: string): void {
  // An empty key is one anyone can sign with, so a missing secret must fail loudly rather than verify.
  if (typeof secret !== 'string' || secret.length === 0) {
    throw new TypeError('secret must be a non-empty string (the whole whsec_... value)');
  }
}

function assertBody(body: string | Uint8Array): void {
  // The usual mistake is passing the object a JSON body parser produced; say so rather than fail obscurely.
  if (typeof body !== 'string' && !(body instanceof Uint8Array)) {
    throw new TypeError('body must be the raw request body as a string or Buffer/Uint8Array, not parsed JSON');
  }
}

/** Computes the lowercase hex v1 value; the key is the whole secret including whsec_, never base64-decoded. */
export function computeSignature(secret: string, timestamp: number, body: string | Uint8Array): string {
  assertSecret(secret);
  assertTimestamp(timestamp);
  assertBody(body);
  return createHmac('sha256', Buffer.from(secret, 'utf8'))
    .update(`${timestamp}.`, 'utf8')
    .update(typeof body === 'string' ? Buffer.from(body, 'utf8') : body)
    .digest('hex');
}

/** Builds the header value; pass the current secret first so receivers on the new secret match on the first entry. */
export function signatureHeader(secrets: readonly string[], timestamp: number, body: string | Uint8Array): string {
  if (secrets.length === 0) throw new RangeError('signatureHeader needs at least one secret');
  assertTimestamp(timestamp);
  const entries = secrets.map((secret) => `v1=${computeSignature(secret, timestamp, body)}`);
  return [`t=${timestamp}`, ...entries].join(',');
}

/** Parses a header strictly and returns undefined instead of throwing, because the header is attacker-controlled input. */
export function parseSignatureHeader(header: string): ParsedSignatureHeader | undefined {
  if (typeof header !== 'string' || header.length === 0) return undefined;
  // The spec forbids spaces; accepting them would let two spellings of one header both verify.
  if (/\s/.test(header)) return undefined;
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const entry of header.split(',')) {
    const eq = entry.indexOf('=');
    if (eq <= 0) return undefined;
    const key = entry.slice(0, eq);
    const value = entry.slice(eq + 1);
    if (key === 't') {
      // A second t is ambiguous about which value was signed.
      if (timestamp !== undefined || !TIMESTAMP_FORMAT.test(value)) return undefined;
      const parsed = Number(value);
      if (!Number.isSafeInteger(parsed)) return undefined;
      timestamp = parsed;
    } else if (key === 'v1') {
      signatures.push(value);
    }
    // Other schemes (v0=, future v2=) are skipped so the gateway can add schemes without breaking receivers.
  }
  if (timestamp === undefined || signatures.length === 0) return undefined;
  return { timestamp, signatures };
}

/** Checks a delivery against one secret; false for anything malformed, stale or unsigned, so receivers just answer 400. */
export function verifySignature(
  rawBody: string | Uint8Array,
  header: string,
  secret: string,
  toleranceSeconds: number = DEFAULT_TOLERANCE_SECONDS,
  nowSeconds: number = Math.floor(Date.now() / 1000),
): boolean {
  assertSecret(secret);
  assertBody(rawBody);
  const parsed = parseSignatureHeader(header);
  if (parsed === undefined) return false;
  // Written so that a NaN tolerance or clock fails closed.
  if (!(Math.abs(nowSeconds - parsed.timestamp) <= toleranceSeconds)) return false;

  const expected = Buffer.from(computeSignature(secret, parsed.timestamp, rawBody), 'utf8');
  let matched = false;
  for (const candidate of parsed.signatures) {
    // The format check looks only at the attacker's own input, so it leaks nothing about the secret.
    if (!SIGNATURE_FORMAT.test(candidate)) continue;
    // No early exit: every candidate is compared so timing does not depend on which one matched.
    if (timingSafeEqual(Buffer.from(candidate, 'utf8'), expected)) matched = true;
  }
  return matched;
}
