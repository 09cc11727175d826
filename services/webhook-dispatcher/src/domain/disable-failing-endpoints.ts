/**
 * The disable sweep (issue 19): a managed endpoint whose every attempt has
 * failed for WEBHOOK_ENDPOINT_DISABLE_AFTER_SECONDS is disabled, with
 * disabled_reason `failing` for the dashboard to show, and the merchant is
 * told by a webhook_endpoint.disabled event to the account's other endpoints
 * that want it (the default one included), and by a webhook_endpoint.disabled
 * broker event, from which the notifier mails the merchant's owners (D20). The
 * disable, the webhook and the event commit together, so each notice is sent
 * exactly when the endpoint is disabled.
 */
import { ENDPOINT_DISABLED_EVENT, newId, type WebhookEndpointDisabledEvent } from '@gateway/contracts';
import { inBatches, withTransaction, type Pool } from '@gateway/db';
import { enqueue as enqueueEvents, eventEnvelope } from '@gateway/messaging';
import type { Logger } from '@gateway/observability';
import type { DeliveryJob } from '../db/delivery-jobs.js';
import type { EndpointRepository } from '../db/endpoint.repository.js';
import type { EventRepository, IncomingEvent } from '../db/event.repository.js';
import { toEndpoint } from './endpoint-view.js';

export interface DisableDeps {
  pool: Pool;
  endpoints: EndpointRepository;
  events: EventRepository;
  enqueue: (jobs: readonly DeliveryJob[]) => void;
  log: Logger;
  afterSeconds: number;
  /** Called once a batch committed, to relay its broker events at once. */
  afterCommit: () => void;
}

const BATCH = 100;

/** Disables every endpoint failing for too long, a batch per transaction; returns how many. */
export async function disableFailingEndpoints(deps: DisableDeps): Promise<number> {
  return inBatches({ size: BATCH }, async () => {
    const { disabled, jobs } = await withTransaction(deps.pool, async (tx) => {
      const rows = await deps.endpoints.disableFailing(tx, deps.afterSeconds, BATCH);
      const notices: IncomingEvent[] = rows.map((row) => {
        const createdAt = new Date().toISOString();
        const id = newId('evt');
        const body: WebhookEndpointDisabledEvent = { id, event: ENDPOINT_DISABLED_EVENT, created_at: createdAt, data: toEndpoint(row) };
        return { id, type: ENDPOINT_DISABLED_EVENT, merchantId: row.merchant_id, livemode: row.livemode, sessionId: '', sessionUrl: '', body: JSON.stringify(body), createdAt, correlationId: id };
      });
      const announced = rows.map((row) =>
        eventEnvelope(
          'webhook_endpoint.disabled',
          { merchant_id: row.merchant_id, livemode: row.livemode, endpoint_id: row.id, url: row.url, disabled_at: (row.disabled_at ?? new Date()).toISOString() },
          newId('cmd'),
        ),
      );
      await enqueueEvents(tx, announced);
      return { disabled: rows, jobs: (await deps.events.storeEvents(notices, tx)).jobs };
    });
    if (disabled.length > 0) deps.afterCommit();
    deps.enqueue(jobs);
    for (const row of disabled) deps.log.warn({ endpointId: row.id, merchantId: row.merchant_id, livemode: row.livemode }, 'webhook endpoint disabled: every attempt failed too long');
    return disabled.length;
  });
}
