/**
 * Sending attempts: sign each one afresh (D11: a new `t` on every attempt,
 * both secrets during a rotation's grace period), POST it, record how it
 * ended, and when it failed, when the next automatic attempt is due. Results
 * are recorded in batches; an attempt whose result is lost (the process died)
 * stays PENDING and is sent again once its lease lapses: at-least-once.
 *
 * An attempt is sent only while this replica's lease covers it: its timeout
 * and as long again to record the result. One that waited in memory past
 * that (a slow endpoint's backlog) is claimed again just before it is sent;
 * if another replica took it meanwhile, or it is done, it is dropped here.
 */
import { backoffDelay } from '@gateway/backoff';
import { GroupCommit } from '@gateway/db';
import { signatureHeader } from '@gateway/sdk';
import { describeError, openSpan, SpanKind, storedTraceContext, withCorrelation, type Logger, type OpenSpan } from '@gateway/observability';
import type { DeliveryJob } from '../db/delivery-jobs.js';
import type { AttemptResult, DeliveryRepository } from '../db/delivery.repository.js';
import { endpointSecretAad } from '../db/endpoint.repository.js';
import { DeliveryQueue, type QueueLimits } from './delivery-queue.js';
import type { DeliveryOutcome, DeliveryRequest } from './webhook-http-client.js';
import { webhookAttempts, webhookDeliveryDuration, webhookGivenUp, webhookLeasesLost, webhookRetriesScheduled } from './webhook-metrics.js';

export interface DispatcherOptions {
  deliveries: DeliveryRepository;
  client: { post(request: DeliveryRequest): Promise<DeliveryOutcome> };
  /** Opens the endpoints' encrypted secrets (D17); its data keys are in memory, so signing costs no database trip. */
  secrets: { decrypt(ciphertext: string, aad: string): Promise<string> };
  log: Logger;
  limits: QueueLimits;
  /** Delays before attempts 2, 3, 4...: after the last, a failure is final. */
  retryDelaysSeconds: readonly number[];
  /** Asked to look for due retries, and attempts waiting in the database, at a time sooner than its own schedule. */
  wakeSweepAt: (at: number) => void;
  /** How long one attempt may take (WEBHOOK_TIMEOUT_MS). */
  timeoutMs: number;
  clock?: () => number;
  /** Monotonic milliseconds, the clock of DeliveryJob.leaseEndsAt. */
  monotonic?: () => number;
}

const USER_AGENT = 'PaymentGateway-Webhooks/1';

export class Dispatcher {
  private readonly queue: DeliveryQueue<DeliveryJob>;
  private readonly results: GroupCommit<AttemptResult, undefined>;
  private readonly released: GroupCommit<string, undefined>;
  private readonly claims: GroupCommit<string, number | undefined>;
  private readonly clock: () => number;
  private readonly monotonic: () => number;

  constructor(private readonly options: DispatcherOptions) {
    this.clock = options.clock ?? Date.now;
    this.monotonic = options.monotonic ?? (() => performance.now());
    this.queue = new DeliveryQueue(
      options.limits,
      (job) => this.attempt(job),
      () => options.wakeSweepAt(this.clock()),
    );
    // Each a statement at a time; what comes meanwhile goes in the next.
    this.results = new GroupCommit({
      name: 'delivery results',
      maxBatch: 500,
      inFlight: 1,
      run: async (results) => {
        await options.deliveries.recordResults(results);
        return results.map(() => undefined);
      },
    });
    this.released = new GroupCommit({
      name: 'delivery release',
      maxBatch: 5_000,
      inFlight: 1,
      run: async (ids) => {
        await options.deliveries.release(ids);
        return ids.map(() => undefined);
      },
    });
    this.claims = new GroupCommit({
      name: 'delivery claims',
      maxBatch: 500,
      inFlight: 1,
      run: async (ids) => {
        const claimed = await options.deliveries.claimForSending(ids);
        return ids.map((id) => claimed.get(id));
      },
    });
  }

  /**
   * Queues claimed attempts. Those a full endpoint turns away are released in
   * the database, where a sweep takes them once the endpoint has room again.
   */
  enqueue(jobs: readonly DeliveryJob[]): void {
    for (const job of jobs) {
      if (!this.queue.push(job)) {
        this.released.add(job.deliveryId).catch((err: unknown) => {
          // Its lease lapses instead, and the sweep takes it then.
          this.options.log.warn({ err: describeError(err), deliveryId: job.deliveryId }, 'webhook attempt not released');
        });
      }
    }
  }

  /** Endpoints with no room in memory: the sweep leaves their waiting attempts in the database. */
  fullEndpoints(): string[] {
    return this.queue.fullEndpoints();
  }

  /** Stops taking work: attempts not started are released for any replica, those in flight finish and are recorded. */
  async stop(): Promise<void> {
    const waiting = this.queue.takeWaiting();
    await this.options.deliveries.release(waiting.map((job) => job.deliveryId)).catch((err: unknown) => {
      this.options.log.warn({ err: describeError(err) }, 'could not release queued webhook attempts; they are resent when their lease lapses');
    });
    await this.queue.drained();
    await this.results.idle();
    await this.released.idle();
  }

  private attempt(job: DeliveryJob): Promise<void> {
    const span = this.span(job);
    const send = span ? () => this.send(job, span).finally(() => span.end()) : () => this.send(job);
    // The delivery's log lines carry the correlation id of the work that emitted the event.
    const run = () => (job.correlationId ? withCorrelation(job.correlationId, send) : send());
    return span ? span.run(run) : run();
  }

  /**
   * Whether this replica holds `job`'s lease for the whole attempt and the
   * recording of its result; when it may not, the lease is claimed again.
   */
  private async holdsLease(job: DeliveryJob): Promise<boolean> {
    if (job.leaseEndsAt - this.monotonic() >= 2 * this.options.timeoutMs) return true;
    const endsAt = await this.claims.add(job.deliveryId).catch((err: unknown) => {
      // Not sent now: the lease lapses and a sweep takes the attempt again.
      this.options.log.warn({ err: describeError(err), deliveryId: job.deliveryId }, 'webhook lease not renewed; attempt left for a sweep');
      return undefined;
    });
    if (endsAt === undefined) {
      webhookLeasesLost.inc();
      this.options.log.info({ deliveryId: job.deliveryId, eventId: job.eventId }, 'webhook attempt not sent here: its lease lapsed while it waited and it is done or held elsewhere');
      return false;
    }
    job.leaseEndsAt = endsAt;
    return true;
  }

  /**
   * With tracing on, a first attempt's client span, in the trace of the event's
   * delivery. Merchants are sent no traceparent: the trace is ours.
   */
  private span(job: DeliveryJob): OpenSpan | undefined {
    const from = storedTraceContext(job.traceContext);
    if (!from) return undefined;
    return openSpan('POST webhook', {
      kind: SpanKind.CLIENT,
      from,
      attributes: { 'http.request.method': 'POST', 'webhook.event.type': job.eventType, 'webhook.attempt': job.attemptNumber, 'messaging.message.id': job.eventId },
    });
  }

  private async send(job: DeliveryJob, span?: OpenSpan): Promise<void> {
    if (!(await this.holdsLease(job))) return;
    const now = this.clock();
    const secrets = await this.signingSecrets(job, now).catch((err: unknown) => {
      // A secret that does not decrypt (a KEK missing, a row altered) must not stop other endpoints' attempts.
      this.options.log.error({ err: describeError(err), deliveryId: job.deliveryId }, 'webhook secret could not be decrypted; attempt not sent');
      return undefined;
    });
    const body = Buffer.from(job.body, 'utf8');
    const outcome: DeliveryOutcome = secrets
      ? await this.options.client.post({
          url: job.url,
          body,
          headers: {
            'Content-Type': 'application/json',
            'User-Agent': USER_AGENT,
            'X-Service-Signature': signatureHeader(secrets, Math.floor(now / 1000), body),
            'X-Service-Webhook-Id': job.eventId,
            'X-Service-Event': job.eventType,
          },
        })
      : { ok: false, responseTimeMs: 0, error: 'the signing secret could not be read' };
    if (outcome.statusCode !== undefined) span?.set('http.response.status_code', outcome.statusCode);
    if (!outcome.ok) span?.fail(outcome.error ?? 'failed');
    const retryInSeconds = outcome.ok ? null : this.retryDelay(job);
    const label = outcome.ok ? 'succeeded' : 'failed';
    webhookAttempts.inc({ outcome: label });
    webhookDeliveryDuration.observe({ outcome: label }, outcome.responseTimeMs / 1000);
    if (retryInSeconds !== null) webhookRetriesScheduled.inc();
    else if (!outcome.ok && !job.manual) webhookGivenUp.inc();
    this.options.log.info(
      { deliveryId: job.deliveryId, eventId: job.eventId, attempt: job.attemptNumber, status: outcome.statusCode, ms: outcome.responseTimeMs, error: outcome.error, retryInSeconds },
      outcome.ok ? 'webhook delivered' : 'webhook attempt failed',
    );
    try {
      await this.results.add({
        deliveryId: job.deliveryId,
        ok: outcome.ok,
        httpStatusCode: outcome.statusCode ?? null,
        responseTimeMs: outcome.responseTimeMs,
        errorMessage: outcome.ok ? '' : (outcome.error ?? 'failed'),
        responseBody: outcome.responseBody ?? null,
        retryInSeconds,
      });
      // The database set next_retry_at from its clock during that commit: by this clock, no later than now + delay.
      if (retryInSeconds !== null) this.options.wakeSweepAt(this.clock() + retryInSeconds * 1000);
    } catch (err) {
      // The attempt stays PENDING and is sent again when its lease lapses.
      this.options.log.warn({ err: describeError(err), deliveryId: job.deliveryId }, 'webhook result not recorded');
    }
  }

  /** The secrets that sign `job` now: the current one, then the previous one during its grace period (D11). */
  private async signingSecrets(job: DeliveryJob, now: number): Promise<string[]> {
    const owner = { id: job.endpointId, isDefault: job.endpointIsDefault, merchantId: job.merchantId, livemode: job.livemode };
    const secrets = [await this.options.secrets.decrypt(job.secretCiphertext, endpointSecretAad('secret', owner))];
    if (job.previousSecretCiphertext && job.previousSecretExpiresAt && job.previousSecretExpiresAt.getTime() > now) {
      secrets.push(await this.options.secrets.decrypt(job.previousSecretCiphertext, endpointSecretAad('previous_secret', owner)));
    }
    return secrets;
  }

  /** Seconds until the next automatic attempt after `job` fails; null after the last one or a resend. */
  private retryDelay(job: DeliveryJob): number | null {
    if (job.manual) return null;
    return backoffDelay({ schedule: this.options.retryDelaysSeconds }, Math.max(job.attemptNumber - 1, 0)) ?? null;
  }
}
