/**
 * Giving a merchant its webhook endpoint in one mode: a signing secret, issued
 * once and kept, and optionally the default URL. A new merchant's test-mode
 * endpoint comes from merchant.created, its live-mode one from
 * merchant.kyb_approved; the command serves operators' tools and load tests.
 */
import { newSecret, type CommandReply, type CommandRequest, type EventData } from '@gateway/contracts';
import { AppError } from '@gateway/problem';
import type { Logger } from '@gateway/observability';
import type { EndpointDeps } from './deps.js';
import { checkWebhookUrl } from './webhook-url.js';

export async function provisionEndpoint(deps: EndpointDeps, command: CommandRequest<'webhook_endpoint.provision'>): Promise<CommandReply<'webhook_endpoint.provision'>> {
  const livemode = command.mode === 'live';
  if (command.url !== undefined) await checkWebhookUrl(command.url, { livemode, allowPrivate: deps.allowPrivate });
  const endpoint = await deps.endpoints.provision(command.merchant_id, livemode, command.url, newSecret('whsec_'));
  return { merchant_id: command.merchant_id, mode: command.mode, url: endpoint.url, webhook_secret: endpoint.secret };
}

/**
 * merchant.created: the new merchant's test-mode endpoint, with the URL it was
 * created with. Idempotent: a redelivery finds the endpoint and leaves it. A
 * URL the address rule refuses after DNS (the gateway checked it as written)
 * is left out, and said in the log: the endpoint still exists and signs.
 */
export async function provisionNewMerchant(deps: EndpointDeps & { log: Logger }, created: EventData<'merchant.created'>): Promise<boolean> {
  let url = created.test_webhook_url ?? '';
  if (url !== '') {
    try {
      await checkWebhookUrl(url, { livemode: false, allowPrivate: deps.allowPrivate });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      deps.log.warn({ merchantId: created.merchant_id }, 'new merchant’s webhook URL refused by the address rule; its endpoint has no URL until webhook set-url');
      url = '';
    }
  }
  const made = await deps.endpoints.provisionIfAbsent(created.merchant_id, false, url, newSecret('whsec_'));
  deps.log.info({ merchantId: created.merchant_id, made }, made ? 'test-mode webhook endpoint provisioned' : 'test-mode webhook endpoint already provisioned');
  return made;
}

/** merchant.kyb_approved: the merchant's live-mode endpoint, with no URL until one is set (https, D11). Idempotent as above. */
export async function provisionLiveEndpoint(deps: EndpointDeps & { log: Logger }, approved: EventData<'merchant.kyb_approved'>): Promise<boolean> {
  const made = await deps.endpoints.provisionIfAbsent(approved.merchant_id, true, '', newSecret('whsec_'));
  deps.log.info({ merchantId: approved.merchant_id, made }, made ? 'live-mode webhook endpoint provisioned' : 'live-mode webhook endpoint already provisioned');
  return made;
}
