/**
 * Where the page lets a buyer's browser post a form the acquirer asked for
 * (D30: the issuer's ACS, its 3DS Method URL). The URL comes from another
 * system's answer, so it is checked before it reaches a page: https: only,
 * and in test mode also the sandbox acquirer's own public origin. Anything
 * else (http: elsewhere, javascript:, data:, a URL with credentials, a host a
 * policy cannot name) never reaches the buyer.
 */

/** Where a form may go: its origin, and whether only a test-mode session may post there (the sandbox's plain http: origin). */
export interface FormTarget {
  origin: string;
  testModeOnly: boolean;
}

/** An origin a Content-Security-Policy can name as it is: scheme, a plain or bracketed IPv6 host, a port. */
const NAMEABLE_ORIGIN = /^https?:\/\/(?:[a-z0-9.-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/;

/** Where `url` may be posted, or undefined when it must not be (`sandboxUrl`: the test sandbox's public URL). */
export function formTarget(url: string, sandboxUrl: string): FormTarget | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.username !== '' || parsed.password !== '' || !NAMEABLE_ORIGIN.test(parsed.origin)) return undefined;
  if (parsed.protocol === 'https:') return { origin: parsed.origin, testModeOnly: false };
  if (parsed.origin === new URL(sandboxUrl).origin) return { origin: parsed.origin, testModeOnly: true };
  return undefined;
}
