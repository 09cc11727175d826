/** The buyer's address as the acquirer asks for it with the card (D30), read as every door of ours reads a client's address. */
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { clientAddress } from '@gateway/runtime';

/** The buyer's address behind `trustProxyHops` proxies of ours: an IPv4 address as such (not IPv6-mapped); undefined when none can be told. */
export function buyerAddress(req: IncomingMessage, trustProxyHops: number): string | undefined {
  const address = clientAddress(req, trustProxyHops);
  const plain = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address)?.[1] ?? address;
  return isIP(plain) === 0 ? undefined : plain;
}
