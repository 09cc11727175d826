/**
 * Giving a merchant its webhook endpoint in one mode (run when the merchant is
 * created or approved for live): a signing secret, issued once and kept, and
 * optionally the default URL.
 */
import { newSecret, type CommandReply, type CommandRequest } from '@gateway/contracts';
import { validationError } from '@gateway/problem';
import type { EndpointRepository } from '../db/endpoint.repository.js';

export async function provisionEndpoint(
  endpoints: EndpointRepository,
  command: CommandRequest<'webhook_endpoint.provision'>,
): Promise<CommandReply<'webhook_endpoint.provision'>> {
  const livemode = command.mode === 'live';
  if (command.url !== undefined) checkUrl(command.url, livemode);
  const endpoint = await endpoints.provision(command.merchant_id, livemode, command.url, newSecret('whsec_'));
  return { merchant_id: command.merchant_id, mode: command.mode, url: endpoint.url, webhook_secret: endpoint.secret };
}

/** An absolute http(s) URL, https in live mode (D6). Address rules (D11) come with delivery. */
function checkUrl(value: string, livemode: boolean): void {
  let parsed: URL | undefined;
  try {
    parsed = new URL(value);
  } catch {
    parsed = undefined;
  }
  const allowed = livemode ? ['https:'] : ['http:', 'https:'];
  if (!parsed || !allowed.includes(parsed.protocol) || value.length > 2048) {
    throw validationError([{ field: 'url', code: 'invalid', message: livemode ? 'url must be an absolute https URL.' : 'url must be an absolute http or https URL.' }]);
  }
}
