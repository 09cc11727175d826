/** The dispatcher's command queue: history queries and managed endpoints (API), endpoint settings, resends, what the dashboard reads and data-key re-wraps (operator). */
import type { CommandHandlers } from '@gateway/messaging';
import type { EndpointDeps, HistoryDeps, ReplayDeps, ResendDeps, SecretsDeps } from '../domain/deps.js';
import { listDeliveries, listSessionDeliveries } from '../domain/list-deliveries.js';
import { getAttempt } from '../domain/get-attempt.js';
import { revealWebhookSecret, rotateWebhookSecret, setWebhookUrl, showWebhookEndpoint } from '../domain/manage-endpoint.js';
import { provisionEndpoint } from '../domain/provision-endpoint.js';
import { replayEndpoint } from '../domain/replay-endpoint.js';
import { resendDelivery } from '../domain/resend-delivery.js';
import { createEndpoint, deleteEndpoint, getEndpoint, listEndpoints, rotateEndpointSecret, updateEndpoint } from '../domain/webhook-endpoints.js';

/** The command table: each command calls one use case. */
export function dispatcherCommands(deps: EndpointDeps & HistoryDeps & ResendDeps & SecretsDeps & ReplayDeps): CommandHandlers {
  return {
    'webhook_endpoint.provision': async (command) => ({ body: await provisionEndpoint(deps, command) }),
    'webhook_endpoint.set_url': async (command) => ({ body: await setWebhookUrl(deps, command) }),
    'webhook_endpoint.rotate_secret': async (command) => ({ body: await rotateWebhookSecret(deps, command) }),
    'webhook_endpoint.show': async (command) => ({ body: await showWebhookEndpoint(deps, command) }),
    'webhook_endpoint.reveal_secret': async (command) => ({ body: await revealWebhookSecret(deps, command) }),
    'webhook.attempt': async (command) => ({ body: await getAttempt(deps, command) }),
    'webhook.resend': async (command) => {
      const { resent, merchantId } = await resendDelivery(deps, command);
      return { body: resent, merchantId };
    },
    'webhooks.secrets.rewrap': async () => ({ body: await deps.secrets.rewrap() }),
    'webhook.list': async (command) => ({ body: await listDeliveries(deps, command.context, command.query) }),
    'webhook.list_session': async (command) => ({ body: await listSessionDeliveries(deps, command.context, command.session_id, command.query) }),
    'webhook_endpoint.create': async (command) => ({ status: 201, body: await createEndpoint(deps, command.context, command.body) }),
    'webhook_endpoint.list': async (command) => ({ body: await listEndpoints(deps, command.context) }),
    'webhook_endpoint.get': async (command) => ({ body: await getEndpoint(deps, command.context, command.endpoint_id) }),
    'webhook_endpoint.update': async (command) => ({ body: await updateEndpoint(deps, command.context, command.endpoint_id, command.body) }),
    'webhook_endpoint.delete': async (command) => ({ body: await deleteEndpoint(deps, command.context, command.endpoint_id) }),
    'webhook_endpoint.roll_secret': async (command) => ({ body: await rotateEndpointSecret(deps, command.context, command.endpoint_id) }),
    'webhook_endpoint.replay': async (command) => ({ status: 202, body: await replayEndpoint(deps, command.context, command.endpoint_id, command.body) }),
  };
}
