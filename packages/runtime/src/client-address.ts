/**
 * Whose request it is, behind our own proxies. Each proxy appends the address
 * it was connected from to X-Forwarded-For, so only the right-most entries,
 * one per proxy of ours, are true; anything left of them is whatever the
 * client wrote. As express's `trust proxy` with a hop count.
 */
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';

/**
 * The addresses a request came through that can be believed, the client
 * first and the peer last: with `trustedHops` proxies of ours in front, the
 * last `trustedHops` entries of X-Forwarded-For and the peer. With 0, the peer
 * alone. A header shorter than that gives all it has.
 */
export function forwardedChain(req: IncomingMessage, trustedHops: number): string[] {
  const peer = req.socket.remoteAddress ?? 'unknown';
  if (trustedHops <= 0) return [peer];
  const header = req.headers['x-forwarded-for'];
  const written = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  const chain = [...written, peer];
  return chain.slice(Math.max(0, chain.length - 1 - trustedHops));
}

/** The client's address: the entry the outermost of our `trustedHops` proxies appended; the peer's with 0. */
export function clientAddress(req: IncomingMessage, trustedHops: number): string {
  return forwardedChain(req, trustedHops)[0] ?? 'unknown';
}

/**
 * What a throttle counts a client address as: an IPv4 address itself (an
 * IPv4-mapped IPv6 address as its IPv4 one), an IPv6 address as its /64,
 * which one subscriber is usually given whole, so that walking through it
 * buys no fresh count. Anything else is counted as written.
 */
export function throttledAddress(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped?.[1] !== undefined) return mapped[1];
  if (isIP(address) !== 6) return address;
  const groups = expandIpv6(address.split('%')[0] ?? address);
  return `${groups.slice(0, 4).join(':')}::/64`;
}

/** The eight groups of an IPv6 address, each without leading zeros (an embedded IPv4 tail read as two groups). */
function expandIpv6(address: string): string[] {
  const withoutIpv4 = address.replace(/(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/, (_all, a: string, b: string, c: string, d: string) =>
    `${((Number(a) << 8) | Number(b)).toString(16)}:${((Number(c) << 8) | Number(d)).toString(16)}`,
  );
  const [head = '', tail] = withoutIpv4.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const zeros = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].map((group) => parseInt(group, 16).toString(16));
}
