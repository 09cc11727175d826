/**
 * Whose request it is, behind our own proxies. Each proxy appends the address
 * it was connected from to X-Forwarded-For, so only the right-most entries,
 * one per proxy of ours, are true; anything left of them is whatever the
 * client wrote. As express's `trust proxy` with a hop count.
 */
import type { IncomingMessage } from 'node:http';

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
