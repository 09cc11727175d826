/**
 * Webhook endpoints the merchant manages through the API (issue 19): create,
 * read, change, delete, rotate a secret. Each belongs to one merchant and the
 * mode of the key that made it; any other caller is answered 404, as for
 * sessions (D2). The secret is shown on create and rotation only.
 */
import {
  CreateWebhookEndpointRequest,
  newId,
  newSecret,
  UpdateWebhookEndpointRequest,
  validatorOf,
  type ApiContext,
  type WebhookEndpoint,
  type WebhookEndpointDeleted,
  type WebhookEndpointList,
  type WebhookEndpointWithSecret,
} from '@gateway/contracts';
import { AppError } from '@gateway/problem';
import { accountOf } from './accounts.js';
import type { EndpointDeps } from './deps.js';
import { checkEndpointBody, found, notFound } from './endpoint-checks.js';
import { toEndpoint } from './endpoint-view.js';

const validCreate = validatorOf<CreateWebhookEndpointRequest>(CreateWebhookEndpointRequest);
const validUpdate = validatorOf<UpdateWebhookEndpointRequest>(UpdateWebhookEndpointRequest);

/** POST /gateway/webhook_endpoints/: a new endpoint with its own secret, shown this once. */
export async function createEndpoint(deps: EndpointDeps, context: ApiContext, body: unknown): Promise<WebhookEndpointWithSecret> {
  const request = await checkEndpointBody(deps, context, validCreate, body);
  const secret = newSecret('whsec_');
  const fields = { url: request.url, enabledEvents: request.enabled_events, description: request.description ?? '' };
  const row = await deps.endpoints.create(accountOf(context), newId('we'), fields, secret, deps.maxEndpoints);
  if (!row) throw new AppError('conflict', `This account already has ${deps.maxEndpoints} webhook endpoints in this mode; delete one first.`);
  return { ...toEndpoint(row), secret };
}

/** GET /gateway/webhook_endpoints/: every endpoint of the account in this mode, oldest first (they are few: no paging). */
export async function listEndpoints(deps: EndpointDeps, context: ApiContext): Promise<WebhookEndpointList> {
  return { data: (await deps.endpoints.list(accountOf(context))).map(toEndpoint), has_more: false };
}

/** GET /gateway/webhook_endpoints/{id}/. */
export async function getEndpoint(deps: EndpointDeps, context: ApiContext, id: string): Promise<WebhookEndpoint> {
  return toEndpoint(found(await deps.endpoints.get(accountOf(context), id), id));
}

/** PATCH /gateway/webhook_endpoints/{id}/: url, enabled_events, description, status; enabling clears a disable for failures. */
export async function updateEndpoint(deps: EndpointDeps, context: ApiContext, id: string, body: unknown): Promise<WebhookEndpoint> {
  const account = accountOf(context);
  // The id first: another account's endpoint is 404 whatever the body.
  found(await deps.endpoints.get(account, id), id);
  const request = await checkEndpointBody(deps, context, validUpdate, body);
  const changes = {
    ...(request.url !== undefined && { url: request.url }),
    ...(request.enabled_events !== undefined && { enabledEvents: request.enabled_events }),
    ...(request.description !== undefined && { description: request.description }),
    ...(request.status !== undefined && { status: request.status }),
  };
  return toEndpoint(found(await deps.endpoints.update(account, id, changes), id));
}

/** DELETE /gateway/webhook_endpoints/{id}/: its pending attempts end; its delivery history stays readable. */
export async function deleteEndpoint(deps: EndpointDeps, context: ApiContext, id: string): Promise<WebhookEndpointDeleted> {
  if (!(await deps.endpoints.delete(accountOf(context), id))) throw notFound(id);
  return { id, deleted: true };
}

/**
 * POST /gateway/webhook_endpoints/{id}/rotate_secret/: the same rotation as
 * the default endpoint's (D11): the new secret signs from now on, the old
 * one too, as a second v1 entry, for the grace period.
 */
export async function rotateEndpointSecret(deps: EndpointDeps, context: ApiContext, id: string): Promise<WebhookEndpointWithSecret> {
  const account = accountOf(context);
  const secret = newSecret('whsec_');
  const rotated = await deps.endpoints.rotateSecret({ ...account, id }, secret, deps.secretGraceSeconds);
  if (!rotated) throw notFound(id);
  const row = found(await deps.endpoints.get(account, id), id);
  return { ...toEndpoint(row), secret, previous_secret_expires_at: rotated.previousSecretExpiresAt.toISOString() };
}
