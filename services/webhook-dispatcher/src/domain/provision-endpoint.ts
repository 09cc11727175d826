/**
 * Giving a merchant its webhook endpoint in one mode (run when the merchant is
 * created or approved for live): a signing secret, issued once and kept, and
 * optionally the default URL.
 */
import { newSecret, type CommandReply, type CommandRequest } from '@gateway/contracts';
import type { EndpointDeps } from './deps.js';
import { checkWebhookUrl } from './webhook-url.js';

export async function provisionEndpoint(deps: EndpointDeps, command: CommandRequest<'webhook_endpoint.provision'>): Promise<CommandReply<'webhook_endpoint.provision'>> {
  const livemode = command.mode === 'live';
  if (command.url !== undefined) await checkWebhookUrl(command.url, { livemode, allowPrivate: deps.allowPrivate });
  const endpoint = await deps.endpoints.provision(command.merchant_id, livemode, command.url, newSecret('whsec_'));
  return { merchant_id: command.merchant_id, mode: command.mode, url: endpoint.url, webhook_secret: endpoint.secret };
}
