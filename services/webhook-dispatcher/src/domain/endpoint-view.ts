/** A managed webhook endpoint as the API, the dashboard and the endpoint's disabled notice show it. */
import type { WebhookEndpoint } from '@gateway/contracts';
import type { EndpointRow } from '../db/endpoint.repository.js';

/** The endpoint as the API shows it, never with its secret. */
export function toEndpoint(row: EndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    enabled_events: row.enabled_events,
    description: row.description,
    status: row.status,
    livemode: row.livemode,
    disabled_reason: row.disabled_reason === 'failing' || row.disabled_reason === 'merchant' ? row.disabled_reason : null,
    disabled_at: row.disabled_at ? row.disabled_at.toISOString() : null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
