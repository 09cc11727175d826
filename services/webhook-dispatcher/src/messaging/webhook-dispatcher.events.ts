/**
 * The dispatcher's events: each change its event consumer applies
 * (apply-once, packages/messaging; the consumer acks each once applied), the
 * events that announce it, and what each event carries of it:
 *
 * - the events merchants receive as webhooks: each is stored, keyed by its
 *   evt_ id (a redelivery changes nothing), with its first attempt at every
 *   endpoint that receives it, in groups (GroupCommit: one statement for the
 *   events of a busy moment); the attempts are then sent at once;
 * - merchant.created and merchant.kyb_approved: the merchant's test-mode and
 *   live-mode endpoints, keyed by merchant and mode.
 *
 * A database away for a while is waited for in process by the consumer, so a
 * few seconds' outage neither dead-letters an event no merchant then gets,
 * nor leaves a merchant without an endpoint (and the CLI without a secret).
 */
import { PAYMENT_METHOD_EVENTS, WEBHOOK_EVENTS, webhookBody, type Envelope, type EventData, type PaymentMethodEventData, type PaymentMethodEventType, type SessionEventData, type WebhookEventType } from '@gateway/contracts';
import { GroupCommit } from '@gateway/db';
import type { AnyChange, Change } from '@gateway/messaging';
import { traceContextToStore, tracingOn, type Logger } from '@gateway/observability';
import type { DeliveryJob } from '../db/delivery-jobs.js';
import type { EventRepository, IncomingEvent } from '../db/event.repository.js';
import type { EndpointDeps } from '../domain/deps.js';
import { provisionLiveEndpoint, provisionNewMerchant } from '../domain/provision-endpoint.js';

/** The most events stored by one statement; one statement runs at a time, and what arrives meanwhile goes in the next. */
const STORE_BATCH = 500;

/** Provisioning of the default endpoints, by the merchant event that asks for it; true when it made the endpoint. */
export interface EndpointProvisioning {
  created: (created: EventData<'merchant.created'>) => Promise<boolean>;
  kybApproved: (approved: EventData<'merchant.kyb_approved'>) => Promise<boolean>;
}

/** merchant.created provisions the test-mode endpoint, merchant.kyb_approved the live-mode one (provision-endpoint.ts). */
export function endpointProvisioning(deps: EndpointDeps & { log: Logger }): EndpointProvisioning {
  return {
    created: (created) => provisionNewMerchant(deps, created),
    kybApproved: (approved) => provisionLiveEndpoint(deps, approved),
  };
}

/** The changes the event consumer applies, whichever event of theirs arrives. */
export function dispatcherEvents(eventRepository: EventRepository, enqueue: (jobs: readonly DeliveryJob[]) => void, provisioning: EndpointProvisioning): AnyChange[] {
  const store = new GroupCommit<IncomingEvent, boolean>({
    name: 'webhook event store',
    maxBatch: STORE_BATCH,
    inFlight: 1,
    run: async (events) => {
      const unique = [...new Map(events.map((e) => [e.id, e])).values()];
      const { stored, jobs } = await eventRepository.storeEvents(unique);
      if (tracingOn()) {
        const traces = new Map(unique.map((e) => [e.id, e.traceContext]));
        for (const job of jobs) job.traceContext = traces.get(job.eventId) ?? null;
      }
      enqueue(jobs);
      // The same event twice in one statement is stored once: its first copy.
      return events.map((e) => stored.delete(e.id));
    },
  });
  const webhookEvents: Change<WebhookEventType, IncomingEvent, true> = {
    name: 'webhook-event',
    events: WEBHOOK_EVENTS,
    fromEvent: (_data, context) => {
      const event = toIncomingEvent(context.event as Envelope<SessionEventData>);
      // With tracing on, the event's first attempts continue this delivery's trace.
      if (tracingOn()) event.traceContext = traceContextToStore();
      return event;
    },
    apply: async (event) => ((await store.add(event)) ? true : undefined),
  };
  const paymentMethodEvents: Change<PaymentMethodEventType, IncomingEvent, true> = {
    name: 'payment-method-event',
    events: PAYMENT_METHOD_EVENTS,
    fromEvent: (_data, context) => paymentMethodEvent(context.event as Envelope<PaymentMethodEventData>),
    apply: webhookEvents.apply,
  };
  const testEndpoint: Change<'merchant.created', EventData<'merchant.created'>, true> = {
    name: 'test-endpoint',
    events: ['merchant.created'],
    fromEvent: (created) => created,
    apply: async (created) => ((await provisioning.created(created)) ? true : undefined),
  };
  const liveEndpoint: Change<'merchant.kyb_approved', EventData<'merchant.kyb_approved'>, true> = {
    name: 'live-endpoint',
    events: ['merchant.kyb_approved'],
    fromEvent: (approved) => approved,
    apply: async (approved) => ((await provisioning.kybApproved(approved)) ? true : undefined),
  };
  return [webhookEvents, paymentMethodEvents, testEndpoint, liveEndpoint];
}

/** A saved card's event as stored (D24): about no session. */
function paymentMethodEvent(envelope: Envelope<PaymentMethodEventData>): IncomingEvent {
  const { merchant_id: merchantId, livemode } = envelope.data;
  return { id: envelope.id, type: envelope.type, merchantId, livemode, sessionId: '', sessionUrl: '', body: webhookBody(envelope), createdAt: envelope.occurred_at, correlationId: envelope.correlation_id };
}

/** The event as stored, with the exact body merchants receive (INTERFACE 6.2). */
function toIncomingEvent(envelope: Envelope<SessionEventData>): IncomingEvent {
  const { merchant_id: merchantId, webhook_url: sessionUrl, session } = envelope.data;
  return {
    id: envelope.id,
    type: envelope.type,
    merchantId,
    livemode: session.livemode,
    sessionId: session.id,
    sessionUrl,
    body: webhookBody(envelope),
    createdAt: envelope.occurred_at,
    correlationId: envelope.correlation_id,
  };
}
