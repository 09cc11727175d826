/**
 * Turning a received webhook into a typed event, only once its signature holds.
 */
import type { WebhookEvent, WebhookEventType } from '../generated/openapi.js';
import { SignatureVerificationError } from '../errors.js';
import { DEFAULT_TOLERANCE_SECONDS, parseSignatureHeader, verifySignature } from './signature.js';

export interface ConstructEventOptions {
  /** Seconds the signature's `t` may differ from now. Default 300. */
  tolerance?: number;
  /** Now, in Unix seconds; for tests. */
  nowSeconds?: number;
}

export class Webhooks {
  /**
   * Verifies `rawBody` (the exact bytes received, not re-serialised JSON) against
   * the X-Service-Signature header with `secret`, and returns the event. Every
   * `v1=` entry is tried in constant time, so a delivery signed with both secrets
   * of a rotation (D11) verifies with either. Throws SignatureVerificationError
   * on a bad, stale or missing signature.
   */
  constructEvent(rawBody: string | Uint8Array, signatureHeader: string | string[] | undefined, secret: string, options: ConstructEventOptions = {}): WebhookEvent & { event: WebhookEventType } {
    const header = Array.isArray(signatureHeader) ? signatureHeader[0] : signatureHeader;
    if (header === undefined || parseSignatureHeader(header) === undefined) throw new SignatureVerificationError('The X-Service-Signature header is missing or malformed.');
    const tolerance = options.tolerance ?? DEFAULT_TOLERANCE_SECONDS;
    if (!verifySignature(rawBody, header, secret, tolerance, options.nowSeconds)) {
      throw new SignatureVerificationError('No v1 signature matches this body and secret within the tolerance.');
    }
    try {
      return JSON.parse(typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody).toString('utf8')) as WebhookEvent & { event: WebhookEventType };
    } catch (err) {
      throw new SignatureVerificationError('The signed body is not JSON.', { cause: err });
    }
  }
}
