/**
 * Transactional outbox. A state change and the events announcing it commit in
 * one transaction (`enqueue` on the transaction's client); the relay claims
 * committed rows for a while (a lease), publishes them with publisher confirms
 * and deletes them only once the broker has confirmed them, with its next
 * claim. What is not confirmed stays and is published again.
 */
import type { ChannelModel, ConfirmChannel } from 'amqplib';
import { backoffDelay } from '@gateway/backoff';
import { eventPublishers, eventRoutingKey, isEventType, type Envelope } from '@gateway/contracts';
import type { Pool, Queryable } from '@gateway/db';
import { describeError, gauge, outsideTrace, type Logger } from '@gateway/observability';
import type { Broker, BrokerComponent } from './broker.js';
import { outboxPublished } from './metrics.js';
import { outboxTraceContext, tracePublish } from './trace-context.js';

/** After a failed relay round: 100 ms, doubled per failure in a row, 5 s at most. */
const RELAY_RETRY = { first: 100, max: 5_000 };

interface OutboxState {
  rows: number;
  oldestSeconds: number;
}

/** The relays of this process, read at scrape time (a process runs one, tests may run several). */
const relays = new Set<OutboxRelay>();
let scrape: { at: number; state: Promise<OutboxState> } | undefined;

/** One query per scrape for both gauges, whichever of them asks first. */
function outboxState(): Promise<OutboxState> {
  const now = Date.now();
  if (!scrape || now - scrape.at > 1_000) {
    scrape = {
      at: now,
      state: Promise.all([...relays].map((relay) => relay.backlog())).then((states) =>
        states.reduce((sum, s) => ({ rows: sum.rows + s.rows, oldestSeconds: Math.max(sum.oldestSeconds, s.oldestSeconds) }), { rows: 0, oldestSeconds: 0 }),
      ),
    };
  }
  return scrape.state;
}

/** The outbox gauges, registered by the first relay: a process without an outbox shows none. */
function registerOutboxGauges(): void {
  gauge('gateway_outbox_backlog_rows', 'Outbox rows not yet published (read at scrape time).', [], async (g) => g.set((await outboxState()).rows));
  gauge('gateway_outbox_oldest_unsent_age_seconds', 'Age of the oldest outbox row not yet published; 0 when empty (read at scrape time).', [], async (g) =>
    g.set((await outboxState()).oldestSeconds),
  );
}

/** One outbox row, as its columns are named: what outboxRows reads from JSON. */
interface OutboxRecord {
  message_id: string;
  routing_key: string;
  body: string;
  /** The writer's span (W3C traceparent and tracestate, as JSON), null when tracing is off. */
  trace_context: string | null;
}

/** The outbox row of one envelope, for callers that carry it within a larger input (a batch's records). */
function outboxRecord(envelope: Envelope): OutboxRecord {
  return { message_id: envelope.id, routing_key: eventRoutingKey(envelope), body: JSON.stringify(envelope), trace_context: outboxTraceContext() };
}

/** The outbox rows of `envelopes`, as the JSON that outboxRows reads from a parameter. */
export function outboxJson(envelopes: readonly Envelope[]): string {
  return JSON.stringify(envelopes.map(outboxRecord));
}

const OUTBOX_COLUMNS = 'message_id, routing_key, body, trace_context';

/**
 * The one statement that writes outbox rows, usable on its own or as a
 * data-modifying CTE of a larger statement (the state change and its event
 * in one statement): it inserts every row of `source`, a FROM clause whose
 * relation has the outbox's columns (outboxRows of a parameter, or a CTE of
 * records holding OutboxRecord's columns), with an optional WHERE (to announce
 * only what the statement changed).
 */
export function outboxInsert(source: string): string {
  return `INSERT INTO outbox (${OUTBOX_COLUMNS}) SELECT ${OUTBOX_COLUMNS} FROM ${source}`;
}

/** The FROM clause of the outbox rows that the JSON parameter `param` (outboxJson) holds. */
export function outboxRows(param: string): string {
  return `json_to_recordset(${param}::json) AS outbox_rows(message_id text, routing_key text, body text, trace_context text)`;
}

/** Adds `envelopes` to the outbox within the caller's transaction. */
export async function enqueue(client: Queryable, envelopes: readonly Envelope[]): Promise<void> {
  if (envelopes.length === 0) return;
  await client.query({ name: 'outbox-enqueue', text: outboxInsert(outboxRows('$1')), values: [outboxJson(envelopes)] });
}

interface OutboxRelayOptions {
  pool: Pool;
  log: Logger;
  /** Rows claimed per round. */
  batchSize?: number;
  /** Backstop polling period: rows committed by a replica that died before relaying them, and the deletes of the last round. */
  pollMs?: number;
  /**
   * The least time between the starts of two claim rounds. A commit that
   * comes within it of the last round waits for the next, with whatever else
   * commits meanwhile, so the commits of a busy moment leave in one round
   * instead of one each (a round is one database round trip whatever its
   * size); at a trickle, rows leave at once.
   */
  gatherMs?: number;
  /** How long a claimed row is this relay's to publish before another may claim it (its process died, or the broker never confirmed). */
  leaseSeconds?: number;
  /** Told of every event once the broker has confirmed it: after its commit, whichever path wrote it. */
  onPublished?: (envelope: Envelope) => void;
}

interface ClaimedRow {
  id: string;
  message_id: string;
  routing_key: string;
  body: string;
  trace_context: string | null;
}

/**
 * One round's statement, one round trip: the rows the last rounds published
 * (`$1`) deleted, and up to `$3` rows no relay holds claimed for `$2`
 * seconds. Its commit does not wait for the disk (synchronous_commit set for
 * this transaction alone): a delete or a claim lost in a crash only publishes
 * its rows again. Named, so each connection parses and plans it once. It
 * answers one row of nulls when it claims nothing.
 */
const ROUND = `WITH settings AS MATERIALIZED (SELECT set_config('synchronous_commit', 'off', true) AS value),
  gone AS (DELETE FROM outbox WHERE id = ANY($1::bigint[])),
  claimed AS (
    UPDATE outbox SET claimed_until = now() + make_interval(secs => $2)
    WHERE id IN (SELECT id FROM outbox WHERE (claimed_until IS NULL OR claimed_until < now()) AND id <> ALL($1::bigint[]) ORDER BY id LIMIT $3 FOR UPDATE SKIP LOCKED)
    RETURNING id, message_id, routing_key, body, trace_context
  )
  SELECT claimed.* FROM settings LEFT JOIN claimed ON true`;

function round(published: readonly string[], batch: number, leaseSeconds: number): { name: string; text: string; values: unknown[] } {
  return { name: 'outbox-round', text: ROUND, values: [published, leaseSeconds, batch] };
}

export class OutboxRelay implements BrokerComponent {
  private channel: ConfirmChannel | undefined;
  private running = false;
  private again = false;
  private stopped = false;
  private current: Promise<void> | undefined;
  private readonly poller: NodeJS.Timeout;
  private failures = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  private paused = false;
  /** When the last claim round started (performance.now()). */
  private lastRound = Number.NEGATIVE_INFINITY;
  /** Rows published and confirmed, deleted by the next round's statement. */
  private published: string[] = [];

  constructor(
    private readonly broker: Broker,
    private readonly options: OutboxRelayOptions,
  ) {
    this.poller = setInterval(() => this.wake(), options.pollMs ?? 1_000);
    this.poller.unref();
    relays.add(this);
    registerOutboxGauges();
  }

  /** Rows waiting (not under a relay's claim) and the age of the oldest, in one cheap query; zeros when the database does not answer. */
  async backlog(): Promise<OutboxState> {
    try {
      const { rows } = await this.options.pool.query<{ rows: number; oldest: number | null }>(
        `SELECT count(*)::int AS rows, extract(epoch FROM now() - min(created_at))::float8 AS oldest FROM outbox
         WHERE claimed_until IS NULL OR claimed_until < now()`,
      );
      return { rows: rows[0]?.rows ?? 0, oldestSeconds: Math.max(0, rows[0]?.oldest ?? 0) };
    } catch {
      return { rows: 0, oldestSeconds: 0 };
    }
  }

  async attach(connection: ChannelModel): Promise<void> {
    this.channel = await this.broker.createConfirmChannel(connection);
    this.wake();
  }

  detach(): void {
    this.channel = undefined;
  }

  /** Test hook: hold publishing (rows accumulate) until `resume`; resolves once a round under way has ended. */
  async pause(): Promise<void> {
    this.paused = true;
    while (this.running) await this.current?.catch(() => undefined);
  }

  resume(): void {
    this.paused = false;
    this.wake();
  }

  /** Signals that rows were committed: publish them now, or with the next round when one has just run. Cheap to call often. */
  wake(): void {
    if (this.stopped || this.paused) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    this.again = false;
    // A round publishes the rows of many traces: it is none of the waking request's.
    this.current = outsideTrace(() => this.loop()).finally(() => {
      this.running = false;
      // Rows committed while the last round was finishing must not wait for the poller.
      if (this.again) this.wake();
    });
  }

  /** Resolves once gatherMs have passed since the last round started. */
  private spaced(): Promise<void> {
    const wait = this.lastRound + (this.options.gatherMs ?? 0) - performance.now();
    return wait > 0 ? new Promise((resolve) => setTimeout(resolve, wait)) : Promise.resolve();
  }

  private async loop(): Promise<void> {
    let full = false;
    try {
      do {
        // A full batch means a backlog: the next round goes at once.
        if (!full) await this.spaced();
        this.again = false;
        this.lastRound = performance.now();
        const published = await this.relayBatch();
        this.failures = 0;
        full = published >= (this.options.batchSize ?? 200);
        if (full) this.again = true;
      } while (this.again && !this.stopped && !this.paused);
    } catch (err) {
      this.failures += 1;
      this.options.log.warn({ err: describeError(err), failures: this.failures }, 'outbox relay round failed; rows kept for retry');
      this.again = false;
      this.scheduleRetry();
    }
  }

  private scheduleRetry(): void {
    if (this.retryTimer) return;
    const delay = backoffDelay(RELAY_RETRY, this.failures - 1);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.wake();
    }, delay);
    this.retryTimer.unref();
  }

  /**
   * One round: in one statement, deletes what the last rounds published and
   * claims a batch (skipping rows another relay holds), then publishes the
   * batch and awaits the broker's confirms. A confirmed row is deleted by the
   * next round (at the latest the backstop poll's); one the broker did not
   * confirm is given back at once, or left to its lease. Answers how many
   * rows it claimed.
   */
  private async relayBatch(): Promise<number> {
    const channel = this.channel;
    const deleting = this.published;
    if (!channel && deleting.length === 0) return 0;
    const batch = channel ? (this.options.batchSize ?? 200) : 0;
    this.published = [];
    let claimed: ClaimedRow[];
    try {
      claimed = (await this.options.pool.query<ClaimedRow>(round(deleting, batch, this.options.leaseSeconds ?? 10))).rows;
    } catch (err) {
      this.published = deleting;
      throw err;
    }
    const rows = claimed.filter((row) => row.id !== null).sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
    if (!channel || rows.length === 0) return 0;
    // A confirm that has not come well within the lease is not waited for: the row is given back rather than claimed by another relay meanwhile.
    const deadline = ((this.options.leaseSeconds ?? 10) * 1000) / 2;
    const sent = await Promise.allSettled(rows.map((row) => withDeadline(this.publish(channel, row), deadline)));
    const unconfirmed: string[] = [];
    sent.forEach((outcome, i) => {
      const row = rows[i] as ClaimedRow;
      if (outcome.status === 'fulfilled') {
        this.published.push(row.id);
        this.announce(outcome.value);
      } else unconfirmed.push(row.id);
    });
    if (unconfirmed.length > 0) {
      // Given back for the retry; should that fail too, the lease lapses and any relay takes them.
      await this.options.pool.query('UPDATE outbox SET claimed_until = NULL WHERE id = ANY($1::bigint[])', [unconfirmed]).catch(() => undefined);
      throw new Error(`${unconfirmed.length} of ${rows.length} events not confirmed by the broker`);
    }
    return rows.length;
  }

  /** Counts an event the broker confirmed and tells whoever asked to know. */
  private announce(envelope: Envelope): void {
    outboxPublished.inc({ type: envelope.type });
    this.options.onPublished?.(envelope);
  }

  /**
   * Publishes one row's event, once confirmed. A row of a type this service
   * does not publish (written by an earlier version: its topic permission
   * would refuse it, closing the connection, round after round) is not sent:
   * logged, and deleted as if published.
   */
  private async publish(channel: ConfirmChannel, row: ClaimedRow): Promise<Envelope> {
    const envelope = JSON.parse(row.body) as Envelope;
    const service = this.broker.service;
    const publishers: readonly string[] | undefined = isEventType(envelope.type) ? eventPublishers[envelope.type] : undefined;
    if (service && !publishers?.includes(service)) {
      this.options.log.warn({ type: envelope.type, eventId: envelope.id }, 'outbox row of an event this service no longer publishes; deleted unsent');
      return envelope;
    }
    return tracePublish(row.trace_context, this.broker.names.events, envelope, (traceHeaders) => this.send(channel, row, envelope, traceHeaders));
  }

  /** Publishes one row's event (with the trace headers its producer span gives, if any); resolves once confirmed. */
  private send(channel: ConfirmChannel, row: ClaimedRow, envelope: Envelope, traceHeaders: Record<string, unknown> | undefined): Promise<Envelope> {
    return new Promise<Envelope>((resolve, reject) => {
      try {
        channel.publish(
          this.broker.names.events,
          // From the event, not the row: a row an earlier version wrote goes under today's key.
          eventRoutingKey(envelope),
          Buffer.from(row.body),
          {
            persistent: true,
            userId: this.broker.user,
            messageId: row.message_id,
            type: envelope.type,
            contentType: 'application/json',
            correlationId: envelope.correlation_id,
            timestamp: Math.floor(Date.parse(envelope.occurred_at) / 1000),
            ...(traceHeaders && { headers: traceHeaders }),
          },
          (err) => (err ? reject(err instanceof Error ? err : new Error('publish not confirmed')) : resolve(envelope)),
        );
      } catch (err) {
        reject(err as Error);
      }
    });
  }

  async drain(): Promise<void> {
    // One last round so that rows committed just before the stop leave now.
    this.wake();
    while (this.running) await this.current?.catch(() => undefined);
    this.stopped = true;
    relays.delete(this);
    clearInterval(this.poller);
    clearTimeout(this.retryTimer);
    // What the last round published is deleted now; should that fail, the rows' leases lapse and they are published again.
    if (this.published.length > 0) {
      await this.options.pool.query(round(this.published, 0, 0)).then(
        () => (this.published = []),
        (err: unknown) => this.options.log.warn({ err: describeError(err) }, 'outbox rows published but not deleted at stop; they will be published again'),
      );
    }
  }
}

/** `promise`, or a rejection once `ms` have passed without it settling. */
function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('publish not confirmed in time')), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
