/** A merchant's default endpoint as operators (D13) and the dashboard (D14) see and change it: its URL, its secret (or a managed endpoint's), a rotation. */
import { newSecret, type CommandReply, type CommandRequest } from '@gateway/contracts';
import { AppError } from '@gateway/problem';
import type { EndpointDeps } from './deps.js';
import { found } from './endpoint-checks.js';
import { checkWebhookUrl } from './webhook-url.js';

const noEndpoint = (command: { merchant_id: string; mode: string }) =>
  new AppError('not-found', `Merchant ${command.merchant_id} has no ${command.mode} mode webhook endpoint.`);

/** The default endpoint of a mode as the dashboard shows it (D14): the URL, or null for none, and the end of a rotation's grace; never a secret. */
export async function showWebhookEndpoint(deps: EndpointDeps, command: CommandRequest<'webhook_endpoint.show'>): Promise<CommandReply<'webhook_endpoint.show'>> {
  const endpoint = await deps.endpoints.findDefault({ merchantId: command.merchant_id, livemode: command.mode === 'live' });
  if (!endpoint) throw noEndpoint(command);
  return {
    merchant_id: command.merchant_id,
    mode: command.mode,
    url: endpoint.url === '' ? null : endpoint.url,
    previous_secret_expires_at: endpoint.previousSecretExpiresAt ? endpoint.previousSecretExpiresAt.toISOString() : null,
  };
}

const PROVISION_POLL_MS = 50;

/**
 * "Reveal" (D14): the secret that signs the webhooks of the default endpoint,
 * or of the managed endpoint `endpoint_id` names, now, decrypted from its
 * stored form (D17), and the URL they go to ('' for none). An endpoint of
 * another merchant or mode is not found, as at the API.
 */
export async function revealWebhookSecret(
  deps: EndpointDeps,
  command: CommandRequest<'webhook_endpoint.reveal_secret'>,
): Promise<CommandReply<'webhook_endpoint.reveal_secret'>> {
  const selector = { merchantId: command.merchant_id, livemode: command.mode === 'live', ...(command.endpoint_id !== undefined && { id: command.endpoint_id }) };
  if (selector.id !== undefined) {
    const managed = found(await deps.endpoints.currentSecret(selector), selector.id);
    return { merchant_id: command.merchant_id, mode: command.mode, url: managed.url, webhook_secret: managed.secret };
  }
  // A merchant just created gets its default endpoint from merchant.created, moments later: `wait_ms` waits for it.
  const deadline = Date.now() + (command.wait_ms ?? 0);
  let endpoint = await deps.endpoints.currentSecret(selector);
  while (endpoint === undefined && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, PROVISION_POLL_MS));
    endpoint = await deps.endpoints.currentSecret(selector);
  }
  if (endpoint === undefined) throw noEndpoint(command);
  return { merchant_id: command.merchant_id, mode: command.mode, url: endpoint.url, webhook_secret: endpoint.secret };
}

/** `webhook set-url`: the URL events go to when their session names none. */
export async function setWebhookUrl(deps: EndpointDeps, command: CommandRequest<'webhook_endpoint.set_url'>): Promise<CommandReply<'webhook_endpoint.set_url'>> {
  const livemode = command.mode === 'live';
  await checkWebhookUrl(command.url, { livemode, allowPrivate: deps.allowPrivate });
  if (!(await deps.endpoints.setUrl(command.merchant_id, livemode, command.url))) throw noEndpoint(command);
  return { merchant_id: command.merchant_id, mode: command.mode, url: command.url };
}

/**
 * `webhook rotate-secret`: a new secret signs from now on; the old one signs
 * too, as a second v1 entry, for the grace period (D11), so receivers can
 * switch without losing a delivery.
 */
export async function rotateWebhookSecret(
  deps: EndpointDeps,
  command: CommandRequest<'webhook_endpoint.rotate_secret'>,
): Promise<CommandReply<'webhook_endpoint.rotate_secret'>> {
  const secret = newSecret('whsec_');
  const rotated = await deps.endpoints.rotateSecret({ merchantId: command.merchant_id, livemode: command.mode === 'live' }, secret, deps.secretGraceSeconds);
  if (!rotated) throw noEndpoint(command);
  return { merchant_id: command.merchant_id, mode: command.mode, webhook_secret: secret, previous_secret_expires_at: rotated.previousSecretExpiresAt.toISOString() };
}
