/** The URLs the protocol carries: merchants' return addresses and the issuer's TermUrl. */

/** An absolute http(s) URL with a host. */
export function isWebUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const { protocol, hostname } = new URL(value);
  return (protocol === 'http:' || protocol === 'https:') && hostname !== '';
}

/** Appends `name=value` to a URL's query, before any fragment, leaving the rest as written. */
export function withQueryParam(url: string, name: string, value: string): string {
  const hash = url.indexOf('#');
  const head = hash < 0 ? url : url.slice(0, hash);
  const fragment = hash < 0 ? '' : url.slice(hash);
  const separator = !head.includes('?') ? '?' : head.endsWith('?') || head.endsWith('&') ? '' : '&';
  return `${head}${separator}${encodeURIComponent(name)}=${encodeURIComponent(value)}${fragment}`;
}
