/**
 * Bearer authentication (INTERFACE 5, D12). A key is checked for shape before
 * any lookup; a verified key's caller is kept in memory for a short while
 * and dropped at once when a broadcast says its merchant or key changed. A
 * rotated key's revocation time travels with it and is checked at each use: it
 * stops working at that time on every replica, cached or not.
 */
import { TtlCache } from '@gateway/runtime';
import type { ApiCaller, MerchantRepository } from '../db/merchant.repository.js';

const KEY_SHAPE = /^sk_(test|live)_[0-9A-Za-z]{32}$/;
const MAX_CACHED = 50_000;

export class Authenticator {
  private readonly cache: TtlCache<string, ApiCaller>;

  constructor(
    private readonly merchants: MerchantRepository,
    ttlMs: number,
  ) {
    this.cache = new TtlCache(ttlMs, MAX_CACHED);
  }

  /** The caller of the Authorization header's key, or undefined when missing, malformed, unknown or revoked. */
  async authenticate(header: string | undefined): Promise<ApiCaller | undefined> {
    if (!header || !header.startsWith('Bearer ')) return undefined;
    const secret = header.slice('Bearer '.length).trim();
    if (!KEY_SHAPE.test(secret)) return undefined;
    const now = Date.now();
    const cached = this.cache.lookup(secret, now);
    if (cached) {
      if (!revokedBy(cached.value, now)) return cached.value;
      this.cache.delete(secret);
      return undefined;
    }
    const caller = await this.merchants.findCaller(secret);
    if (!caller || revokedBy(caller, Date.now())) {
      this.cache.delete(secret);
      return undefined;
    }
    // The mode comes from the prefix; a key stored under the other mode is not this key.
    if (caller.livemode !== secret.startsWith('sk_live_')) return undefined;
    this.cache.set(secret, caller, now);
    return caller;
  }

  /** Forgets every cached key of `merchantId` (suspended, limits changed). */
  forgetMerchant(merchantId: string): void {
    this.cache.deleteWhere((caller) => caller.merchantId === merchantId);
  }

  /** Forgets a revoked key. */
  forgetKey(keyId: string): void {
    this.cache.deleteWhere((caller) => caller.keyId === keyId);
  }

  forgetAll(): void {
    this.cache.clear();
  }
}

/** Whether the key's scheduled revocation time has come. */
function revokedBy(caller: ApiCaller, now: number): boolean {
  return caller.revokesAt !== null && caller.revokesAt <= now;
}
