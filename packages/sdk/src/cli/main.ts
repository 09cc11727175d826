/**
 * The `gateway` command: `listen` and `trigger`. Settings come from flags,
 * else from GATEWAY_API_KEY and GATEWAY_BASE_URL, so a key need not appear in
 * the shell's history.
 */
import { parseArgs } from 'node:util';
import { listen } from './listen.js';
import { trigger, TRIGGERABLE_EVENTS } from './trigger.js';

const USAGE = `Usage:
  gateway listen --forward-to <url> [--api-key sk_test_...] [--base-url <url>]
  gateway trigger <${TRIGGERABLE_EVENTS.join('|')}> [--api-key sk_test_...] [--base-url <url>]

The key may also come from GATEWAY_API_KEY, the gateway's address from GATEWAY_BASE_URL (default http://localhost:8080).`;

/** Runs the command of `argv` (without node and the script); the process's exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: { 'forward-to': { type: 'string' }, 'api-key': { type: 'string' }, 'base-url': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  const [command, event] = positionals;
  const apiKey = values['api-key'] ?? process.env.GATEWAY_API_KEY ?? '';
  const baseUrl = values['base-url'] ?? process.env.GATEWAY_BASE_URL ?? 'http://localhost:8080';
  if (values.help || (command !== 'listen' && command !== 'trigger')) {
    console.log(USAGE);
    return values.help ? 0 : 2;
  }
  if (!apiKey) {
    console.error('An API key is needed: --api-key or GATEWAY_API_KEY.');
    return 2;
  }
  try {
    if (command === 'listen') {
      const forwardTo = values['forward-to'];
      if (!forwardTo) {
        console.error('listen needs --forward-to <url>.');
        return 2;
      }
      const stop = new AbortController();
      process.once('SIGINT', () => stop.abort());
      process.once('SIGTERM', () => stop.abort());
      await listen({ apiKey, baseUrl, forwardTo, signal: stop.signal });
    } else {
      await trigger(event ?? '', { apiKey, baseUrl });
    }
    return 0;
  } catch (err) {
    // The message only: a problem's detail or a usage mistake, never a stack trace.
    console.error(err instanceof Error ? err.message : String(err));
    return 1;
  }
}
