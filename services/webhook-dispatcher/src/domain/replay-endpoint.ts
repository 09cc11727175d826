/**
 * POST /gateway/webhook_endpoints/{id}/replay/: the events of the endpoint's
 * account and mode that it wants, created since a time, sent to it again as
 * new attempts: the same body and webhook id, signed afresh. Bounded: since
 * lies within the retention period, one call queues at most a page of events
 * and says where the next call starts; the gateway charges it to a low budget.
 */
import { ReplayWebhookEndpointRequest, validatorOf, type ApiContext, type WebhookReplayResult } from '@gateway/contracts';
import { AppError, validationError } from '@gateway/problem';
import type { ReplayDeps } from './deps.js';
import { accountOf } from './accounts.js';
import { checkBody, found } from './endpoint-checks.js';

const validReplay = validatorOf<ReplayWebhookEndpointRequest>(ReplayWebhookEndpointRequest);

const DAY_MS = 86_400_000;

/** POST /gateway/webhook_endpoints/{id}/replay/: the account's events since a time queued again to one endpoint, a page at a time. */
export async function replayEndpoint(deps: ReplayDeps, context: ApiContext, id: string, body: unknown, now = Date.now()): Promise<WebhookReplayResult> {
  const request = checkBody(validReplay, body);
  const account = accountOf(context);
  const endpoint = found(await deps.endpoints.get(account, id), id);
  const since = new Date(request.since);
  // RFC 3339 allows offsets up to ±23:59; PostgreSQL, which compares the time as given, takes up to ±15:59.
  const offsetHours = /([+-])(\d{2}):\d{2}$/.exec(request.since)?.[2];
  if (offsetHours !== undefined && Number(offsetHours) > 15) {
    throw validationError([{ field: 'since', code: 'invalid', message: 'since must have a UTC offset between -15:59 and +15:59.' }]);
  }
  if (since.getTime() < now - deps.retentionDays * DAY_MS) {
    throw validationError([{ field: 'since', code: 'invalid', message: `since must be within the last ${deps.retentionDays} days: older events are no longer kept.` }]);
  }
  if (endpoint.status !== 'enabled') throw new AppError('conflict', 'The webhook endpoint is disabled; enable it before replaying events to it.');
  // since as given: a next_since carries microseconds a Date would drop.
  const page = await deps.deliveries.replay(account, id, request.since, request.starting_after, deps.replayBatch);
  deps.enqueue(page.jobs);
  return {
    queued: page.jobs.length,
    has_more: page.more,
    next_since: page.more && page.last ? page.last.createdAt : null,
    next_starting_after: page.more && page.last ? page.last.id : null,
  };
}
