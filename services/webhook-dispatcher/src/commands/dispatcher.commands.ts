/** The dispatcher's command queue: history queries (API), endpoint settings, resends and data-key re-wraps (operator). */
import type { CommandHandlers } from '@gateway/messaging';
import type { EndpointDeps, HistoryDeps, ResendDeps, SecretsDeps } from '../domain/deps.js';
import { listDeliveries, listSessionDeliveries } from '../domain/list-deliveries.js';
import { rotateWebhookSecret, setWebhookUrl } from '../domain/manage-endpoint.js';
import { provisionEndpoint } from '../domain/provision-endpoint.js';
import { resendDelivery } from '../domain/resend-delivery.js';

export function dispatcherCommands(deps: EndpointDeps & HistoryDeps & ResendDeps & SecretsDeps): CommandHandlers {
  return {
    'webhook_endpoint.provision': async (command) => ({ body: await provisionEndpoint(deps, command) }),
    'webhook_endpoint.set_url': async (command) => ({ body: await setWebhookUrl(deps, command) }),
    'webhook_endpoint.rotate_secret': async (command) => ({ body: await rotateWebhookSecret(deps, command) }),
    'webhook.resend': async (command) => {
      const { resent, merchantId } = await resendDelivery(deps, command);
      return { body: resent, merchantId };
    },
    'webhooks.secrets.rewrap': async () => ({ body: await deps.secrets.rewrap() }),
    'webhook.list': async (command) => ({ body: await listDeliveries(deps, command.context, command.query) }),
    'webhook.list_session': async (command) => ({ body: await listSessionDeliveries(deps, command.context, command.session_id, command.query) }),
  };
}
