/**
 * The address rule (D11) at configuration time: a webhook URL must be an
 * absolute http(s) URL (https in live mode) whose host is not loopback,
 * private, link-local, CGNAT, unique-local or metadata, neither as written nor
 * as its name resolves now. The same rule runs again at connect time.
 */
import { lookup } from 'node:dns/promises';
import { isForbiddenAddress, isIpLiteral, privateAddressProblem, unbracket, webhookUrlError } from '@gateway/webhook-address';
import { validationError } from '@gateway/problem';

export type Resolve = (hostname: string) => Promise<readonly { address: string }[]>;

const resolveAll: Resolve = (hostname) => lookup(hostname, { all: true });

/** Throws a validation problem on field `url` when `url` may not receive webhooks. */
export async function checkWebhookUrl(url: string, options: { livemode: boolean; allowPrivate: boolean; resolve?: Resolve }): Promise<void> {
  const refused = webhookUrlError('url', url, options);
  if (refused) throw validationError([refused]);
  if (options.allowPrivate) return;
  const hostname = unbracket(new URL(url).hostname);
  if (isIpLiteral(hostname)) return;
  let addresses: readonly { address: string }[];
  try {
    addresses = await (options.resolve ?? resolveAll)(hostname);
  } catch {
    // A name that does not resolve yet is the merchant's to fix; each attempt checks again.
    return;
  }
  if (addresses.some((a) => isForbiddenAddress(a.address))) throw validationError([{ field: 'url', code: 'invalid', message: privateAddressProblem() }]);
}
