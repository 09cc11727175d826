/**
 * Which webhook destinations are refused (DECISIONS D11): loopback, private, link-local, CGNAT,
 * unique-local and metadata addresses, IPv4 embedded in IPv6 included. Pure and synchronous: the
 * URL check here looks at the URL only; the dispatcher checks again at connect time, after DNS.
 */
import { isIP } from 'node:net';
import type { SchemaFieldError } from '@gateway/contracts';

/** The longest webhook URL accepted, in characters. */
const WEBHOOK_URL_MAX_LENGTH = 2048;

/**
 * True when `value` is a bare IPv4 or IPv6 address as node:net's `isIP` reads it (an IPv6 zone such
 * as `fe80::1%eth0` included). Brackets, as in a URL's `[::1]`, are not part of an address.
 */
export function isIpLiteral(value: string): boolean {
  return typeof value === 'string' && isIP(value) !== 0;
}

/**
 * True when a webhook may not be delivered to `ip`: IPv4 0/8, 10/8, 100.64/10, 127/8, 169.254/16,
 * 172.16/12, 192.0.0/24, 192.168/16, 198.18/15, 224/4 and 240/4; IPv6 ::, ::1, fc00::/7, fe80::/10,
 * fec0::/10, ff00::/8 and the local-use NAT64 prefix 64:ff9b:1::/48. An IPv4 address carried in IPv6
 * (mapped `::ffff:a.b.c.d` in either notation, translated `::ffff:0:a.b.c.d`, compatible `::a.b.c.d`,
 * NAT64 `64:ff9b::/96`, 6to4 `2002::/16`) is judged as that IPv4.
 *
 * Takes IP addresses only: anything `isIpLiteral` refuses, a host name or a bracketed `[::1]`
 * included, throws a TypeError rather than being called allowed.
 */
export function isForbiddenAddress(ip: string): boolean {
  const family = typeof ip === 'string' ? isIP(ip) : 0;
  if (family === 4) return isForbiddenIpv4(parseIpv4(ip));
  if (family === 6) return isForbiddenIpv6(parseIpv6(ip));
  const shown = typeof ip === 'string' ? JSON.stringify(ip.slice(0, 64)) : typeof ip;
  throw new TypeError(`isForbiddenAddress takes an IP address, not ${shown}`);
}

/** Options of {@link webhookUrlProblem}. */
export interface WebhookUrlOptions {
  /** Live mode accepts https only. */
  livemode: boolean;
  /** WEBHOOK_ALLOW_PRIVATE: lifts the address and host name rules, not the syntax rules. */
  allowPrivate: boolean;
}

/** Why a URL whose host is, or resolves to, a forbidden address is refused; `field` names the URL. */
export function privateAddressProblem(field = 'url'): string {
  return `${field} must not point to a private, loopback or link-local address.`;
}

/**
 * The validation entry (D6) of a webhook URL refused by webhookUrlProblem,
 * naming `field` (the request's name for the URL: `webhook_url`, `url`);
 * undefined when the URL is acceptable.
 */
export function webhookUrlError(field: string, url: string, options: WebhookUrlOptions): SchemaFieldError | undefined {
  const message = webhookUrlProblem(url, options, field);
  return message === undefined ? undefined : { field, code: 'invalid', message };
}

/**
 * Why a webhook URL is refused when it is configured, or undefined when it is acceptable; the
 * message names the URL `field`. Looks at the URL only (no DNS): a host name that resolves to a
 * forbidden address is caught at delivery.
 */
export function webhookUrlProblem(url: string, options: WebhookUrlOptions, field = 'url'): string | undefined {
  if (typeof url !== 'string' || url.length === 0) return `${field} must be an absolute http or https URL.`;
  if (url.length > WEBHOOK_URL_MAX_LENGTH) return `${field} must be at most ${WEBHOOK_URL_MAX_LENGTH} characters.`;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `${field} must be an absolute http or https URL.`;
  }
  if (options.livemode) {
    if (parsed.protocol !== 'https:') return `${field} must use https in live mode.`;
  } else if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    return `${field} must use http or https.`;
  }
  if (parsed.username !== '' || parsed.password !== '') return `${field} must not contain a username or password.`;
  if (parsed.hostname === '') return `${field} must name a host.`;
  if (options.allowPrivate) return undefined;

  const host = unbracket(parsed.hostname);
  if (isIpLiteral(host)) return isForbiddenAddress(host) ? privateAddressProblem(field) : undefined;

  const name = host.replace(/\.+$/, '');
  if (name === 'localhost' || /\.(localhost|local|internal)$/.test(name)) {
    return `${field} must not point to localhost or a .local or .internal host name.`;
  }
  if (!name.includes('.')) return `${field} host must be a fully qualified domain name, not a single-label name.`;
  return undefined;
}

/** A WHATWG URL hostname without the brackets of an IPv6 address: `[::1]` → `::1`. */
export function unbracket(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

/** The address of a URL hostname that is a forbidden IP literal (D11); undefined for a name or an allowed address. */
export function forbiddenLiteral(hostname: string): string | undefined {
  const host = unbracket(hostname);
  return isIpLiteral(host) && isForbiddenAddress(host) ? host : undefined;
}

type Ipv4 = readonly [number, number, number, number];

/** Octets of an address `isIP` has already called IPv4. */
function parseIpv4(ip: string): Ipv4 {
  const [a = 0, b = 0, c = 0, d = 0] = ip.split('.').map((part) => Number.parseInt(part, 10));
  return [a, b, c, d];
}

/** The eight 16-bit groups of an address `isIP` has already called IPv6. */
function parseIpv6(ip: string): number[] {
  const address = ip.split('%')[0] ?? '';
  const groupsOf = (part: string): number[] => {
    if (part === '') return [];
    const groups: number[] = [];
    for (const piece of part.split(':')) {
      if (piece.includes('.')) {
        const [a, b, c, d] = parseIpv4(piece);
        groups.push((a << 8) | b, (c << 8) | d);
      } else {
        groups.push(Number.parseInt(piece, 16));
      }
    }
    return groups;
  };
  const gap = address.indexOf('::');
  if (gap === -1) return groupsOf(address);
  const head = groupsOf(address.slice(0, gap));
  const tail = groupsOf(address.slice(gap + 2));
  return [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
}

function isForbiddenIpv4([a, b, c]: Ipv4): boolean {
  return (
    a === 0 || // 0.0.0.0/8 "this network"
    a === 10 || // 10/8 private
    (a === 100 && b >= 64 && b <= 127) || // 100.64/10 CGNAT
    a === 127 || // 127/8 loopback
    (a === 169 && b === 254) || // 169.254/16 link-local, cloud metadata
    (a === 172 && b >= 16 && b <= 31) || // 172.16/12 private
    (a === 192 && b === 0 && c === 0) || // 192.0.0/24 IETF protocol assignments
    (a === 192 && b === 168) || // 192.168/16 private
    (a === 198 && (b === 18 || b === 19)) || // 198.18/15 benchmarking
    a >= 224 // 224/4 multicast, 240/4 reserved, 255.255.255.255
  );
}

function embeddedIpv4(high: number, low: number): Ipv4 {
  return [high >> 8, high & 0xff, low >> 8, low & 0xff];
}

function isForbiddenIpv6(g: number[]): boolean {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const zeroTo4 = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  if (zeroTo4 && g5 === 0 && g6 === 0 && (g7 === 0 || g7 === 1)) return true; // :: and ::1
  if (zeroTo4 && (g5 === 0xffff || g5 === 0)) return isForbiddenIpv4(embeddedIpv4(g6, g7)); // ::ffff:a.b.c.d, ::a.b.c.d
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0xffff && g5 === 0) return isForbiddenIpv4(embeddedIpv4(g6, g7)); // ::ffff:0:a.b.c.d SIIT
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 1) return true; // 64:ff9b:1::/48 local-use NAT64 (RFC 8215): a site's own translator, to any of its IPv4
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) {
    return isForbiddenIpv4(embeddedIpv4(g6, g7)); // 64:ff9b::/96 NAT64
  }
  if (g0 === 0x2002) return isForbiddenIpv4(embeddedIpv4(g1, g2)); // 2002::/16 6to4
  return (
    (g0 & 0xfe00) === 0xfc00 || // fc00::/7 unique-local
    (g0 & 0xffc0) === 0xfe80 || // fe80::/10 link-local
    (g0 & 0xffc0) === 0xfec0 || // fec0::/10 site-local
    (g0 & 0xff00) === 0xff00 // ff00::/8 multicast
  );
}
