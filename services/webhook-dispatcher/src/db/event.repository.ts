/**
 * The events merchants receive as webhooks, stored once each (keyed by their
 * evt_ id), with the first attempt of each at every endpoint that receives
 * it, claimed with a lease in the same statement (delivery.repository.ts has
 * the attempts from then on).
 */
import { newId } from '@gateway/contracts';
import type { Pool, Queryable } from '@gateway/db';
import { ENDPOINT_JOB_COLUMNS, LEASE_LEFT_MS, leased, TARGET_URL, type ClaimedRow, type DeliveryJob } from './delivery-jobs.js';

/** An event as it arrives, with the webhook body already built. */
export interface IncomingEvent {
  id: string;
  type: string;
  merchantId: string;
  livemode: boolean;
  sessionId: string;
  /** The session's webhook_url, '' when it has none. */
  sessionUrl: string;
  body: string;
  createdAt: string;
  /** The work that emitted the event, for the delivery's log lines. */
  correlationId: string;
  /** With tracing on: the trace context of the delivery that brought it, which its first attempts continue. */
  traceContext?: string | null;
}

/**
 * The endpoints of event `e`'s account that receive it: the default one
 * always (D11), a managed one while enabled and when it wants the type.
 */
const RECEIVES = `ep.merchant_id = e.merchant_id AND ep.livemode = e.livemode
  AND (ep.is_default OR ep.status = 'enabled' AND ep.enabled_events && ARRAY['*', e.type])`;

export class EventRepository {
  constructor(
    private readonly pool: Pool,
    private readonly leaseSeconds: number,
    /** This replica's name on the leases it holds (lease_owner). */
    private readonly owner: string,
  ) {}

  /**
   * Stores new events (an event already stored is skipped: the broker
   * redelivered it) and claims the first attempt of each one at every
   * endpoint that receives it and has a URL. With none, the event is kept and
   * nothing is sent (D11). Answers the ids of the events it stored and the
   * first attempts it claimed. In `tx` when given, else on its own.
   */
  async storeEvents(events: readonly IncomingEvent[], tx: Queryable = this.pool): Promise<{ stored: Set<string>; jobs: DeliveryJob[] }> {
    if (events.length === 0) return { stored: new Set(), jobs: [] };
    const sentAt = performance.now();
    const result = await tx.query<ClaimedRow & { storedId: string }>({
      name: 'events-store',
      text: `WITH incoming AS (
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::boolean[], $5::text[], $6::text[], $7::text[], $8::timestamptz[], $9::text[], $11::text[])
           AS i(id, type, merchant_id, livemode, session_id, session_url, body, created_at, delivery_id, correlation_id)
       ), stored AS (
         INSERT INTO events (id, type, merchant_id, livemode, session_id, session_url, body, created_at, correlation_id)
         SELECT id, type, merchant_id, livemode, session_id, session_url, body, created_at, correlation_id FROM incoming
         ON CONFLICT (id) DO NOTHING
         RETURNING id
       ), d AS (
         -- How many managed endpoints receive an event is known only here: their deliveries' ids are drawn here (96 random bits).
         INSERT INTO deliveries (id, endpoint_id, event_id, event_type, merchant_id, livemode, session_id, url, attempt_number, status, lease_until, lease_owner)
         SELECT CASE WHEN ep.is_default THEN e.delivery_id ELSE 'whd_' || substr(md5(random()::text || ep.id || e.id), 1, 24) END,
           ep.id, e.id, e.type, e.merchant_id, e.livemode, e.session_id, ${TARGET_URL}, 1, 'PENDING', now() + make_interval(secs => $10), $12
         FROM incoming e JOIN stored s ON s.id = e.id
         JOIN endpoints ep ON ${RECEIVES}
         WHERE ${TARGET_URL} <> ''
         RETURNING *
       ), jobs AS (
         SELECT d.id AS "deliveryId", d.event_id AS "eventId", d.event_type AS "eventType", d.url,
           d.attempt_number AS "attemptNumber", d.manual, i.body, i.correlation_id AS "correlationId", d.merchant_id AS "merchantId", d.livemode,
           ${ENDPOINT_JOB_COLUMNS}, ${LEASE_LEFT_MS}
         FROM d JOIN incoming i ON i.id = d.event_id
         JOIN endpoints ep ON ep.id = d.endpoint_id
       )
       -- A row per stored event (its attempts', or one without a job when nothing receives it).
       SELECT s.id AS "storedId", jobs.* FROM stored s LEFT JOIN jobs ON jobs."eventId" = s.id`,
      values: [
        events.map((e) => e.id),
        events.map((e) => e.type),
        events.map((e) => e.merchantId),
        events.map((e) => e.livemode),
        events.map((e) => e.sessionId),
        events.map((e) => e.sessionUrl),
        events.map((e) => e.body),
        events.map((e) => e.createdAt),
        events.map(() => newId('whd')),
        this.leaseSeconds,
        events.map((e) => e.correlationId),
        this.owner,
      ],
    });
    const stored = new Set(result.rows.map((row) => row.storedId));
    const jobs = result.rows.filter((row) => row.deliveryId !== null).map(({ storedId: _stored, ...job }) => job);
    return { stored, jobs: leased(jobs, sentAt) };
  }
}
