/**
 * DECISIONS D11 at connect time, the client's one specialisation: a host name
 * is resolved by our own lookup, which refuses the connection when any address
 * it resolves to is loopback, private, link-local, CGNAT, unique-local or
 * metadata; an IP literal (which Node connects to without a lookup) is judged
 * before anything is sent. The rule itself is @gateway/webhook-address'.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import { isForbiddenAddress, isIpLiteral } from '@gateway/webhook-address';

/** Resolves a host name to all its addresses. */
export type HostResolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

/** The error code a refused address fails with, whether refused before connecting or after DNS. */
export const ADDRESS_NOT_ALLOWED = 'ERR_ADDRESS_NOT_ALLOWED';

/** node:dns/promises lookup of every address of a name. */
export const systemResolver: HostResolver = (hostname) => dnsLookup(hostname, { all: true });

/** A connection refused by D11, naming the address. */
export class AddressNotAllowed extends Error {
  readonly code = ADDRESS_NOT_ALLOWED;
  constructor(readonly address: string) {
    super(`address ${address} is not allowed (private, loopback or link-local)`);
    this.name = 'AddressNotAllowed';
  }
}

/**
 * A `lookup` for net.connect: resolves every address of the name through
 * `resolver` and, when `refusePrivate`, fails with AddressNotAllowed when any
 * of them is forbidden. Answers both callback shapes Node uses:
 * `(err, address, family)` and, with `all: true` (autoSelectFamily), `(err, addresses)`.
 */
export function guardedLookup(resolver: HostResolver, refusePrivate: boolean): LookupFunction {
  return (hostname, lookupOptions, callback) => {
    const family = lookupOptions.family === 4 || lookupOptions.family === 'IPv4' ? 4
      : lookupOptions.family === 6 || lookupOptions.family === 'IPv6' ? 6 : 0;
    // The callback runs outside the promise chain, so nothing it throws becomes a rejection.
    const answer = (...args: Parameters<typeof callback>): void => process.nextTick(() => callback(...args));
    let resolving: Promise<{ address: string; family: number }[]>;
    try {
      resolving = resolver(hostname);
    } catch (err) {
      resolving = Promise.reject(err);
    }
    resolving.then(
      (resolved) => {
        const all = Array.isArray(resolved) ? resolved : [];
        if (refusePrivate) {
          const forbidden = all.find((entry) => !isAllowedResolvedAddress(entry.address));
          if (forbidden !== undefined) return answer(new AddressNotAllowed(String(forbidden.address)), '');
        }
        const usable = all.filter((entry) => isIpLiteral(entry.address) && (family === 0 || entry.family === family));
        const first = usable[0];
        if (first === undefined) return answer(lookupError('no address', hostname), '');
        if (lookupOptions.all) return answer(null, usable.map(({ address, family: f }) => ({ address, family: f })));
        return answer(null, first.address, first.family);
      },
      () => answer(lookupError('DNS lookup failed', hostname), ''),
    );
  };
}

/** An address from DNS may be used only when it is an IP address that is not forbidden. */
function isAllowedResolvedAddress(address: unknown): boolean {
  return typeof address === 'string' && isIpLiteral(address) && !isForbiddenAddress(address);
}

function lookupError(message: string, hostname: string): NodeJS.ErrnoException {
  const err: NodeJS.ErrnoException = new Error(`${message}: ${hostname}`);
  err.code = 'ENOTFOUND';
  return err;
}
