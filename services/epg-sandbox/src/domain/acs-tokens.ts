/**
 * paReq, paRes and the ACS page's decision: opaque base64url tokens that
 * carry an orderId (and, for paRes, the authentication result; for a
 * decision, where the answer goes) with an HMAC-SHA256 over them, so that
 * neither the browser nor the merchant can forge or redirect them.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export type AuthenticationResult = 'Y' | 'N';

const MAC_BYTES = 32;
const TOKEN = /^[A-Za-z0-9_-]{1,1024}$/;

export class AcsTokens {
  constructor(private readonly key: Buffer) {}

  /** The authentication request for an order's challenge. */
  paReq(orderId: string): string {
    return this.sign(['PaReq', orderId]);
  }

  /** The orderId a paReq was made for, or undefined when it is not one of ours. */
  readPaReq(token: string): string | undefined {
    const parts = this.verify(token);
    return parts?.length === 2 && parts[0] === 'PaReq' ? parts[1] : undefined;
  }

  /** The issuer's answer to a challenge. */
  paRes(orderId: string, result: AuthenticationResult): string {
    return this.sign(['PaRes', orderId, result]);
  }

  /** What a paRes says, or undefined when it is not one of ours. */
  readPaRes(token: string): { orderId: string; result: AuthenticationResult } | undefined {
    const parts = this.verify(token);
    if (parts?.length !== 3 || parts[0] !== 'PaRes') return undefined;
    const [, orderId, result] = parts;
    if (orderId === undefined || (result !== 'Y' && result !== 'N')) return undefined;
    return { orderId, result };
  }

  /** The cardholder's choice on an ACS page: which challenge it answers (`parts`), signed so the browser cannot point it elsewhere. */
  decision(parts: readonly string[]): string {
    return this.sign(['Decision', ...parts]);
  }

  /** The parts of a decision token, or undefined when it is not one of ours. */
  readDecision(token: string): string[] | undefined {
    const parts = this.verify(token);
    return parts?.[0] === 'Decision' ? parts.slice(1) : undefined;
  }

  private sign(parts: readonly string[]): string {
    const payload = Buffer.from(parts.join('\n'), 'utf8');
    return Buffer.concat([payload, this.mac(payload)]).toString('base64url');
  }

  private verify(token: string): string[] | undefined {
    if (!TOKEN.test(token)) return undefined;
    const bytes = Buffer.from(token, 'base64url');
    // One spelling per token: no second encoding of the same bytes passes.
    if (bytes.length <= MAC_BYTES || bytes.toString('base64url') !== token) return undefined;
    const payload = bytes.subarray(0, bytes.length - MAC_BYTES);
    const mac = bytes.subarray(bytes.length - MAC_BYTES);
    if (!timingSafeEqual(mac, this.mac(payload))) return undefined;
    return payload.toString('utf8').split('\n');
  }

  private mac(payload: Buffer): Buffer {
    return createHmac('sha256', this.key).update(payload).digest();
  }
}
