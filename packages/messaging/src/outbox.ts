/**
 * Transactional outbox. A state change and the events announcing it commit in
 * one transaction (`enqueue` on the transaction's client); the relay publishes
 * committed rows with publisher confirms and deletes them only once the broker
 * has confirmed every one. What is not confirmed stays and is published again.
 */
import type { ChannelModel, ConfirmChannel } from 'amqplib';
import { backoffDelay } from '@gateway/backoff';
import type { Envelope } from '@gateway/contracts';
import type { Pool, PoolClient, Queryable } from '@gateway/db';
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
  return { message_id: envelope.id, routing_key: envelope.type, body: JSON.stringify(envelope), trace_context: outboxTraceContext() };
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
  /** Backstop polling period: rows committed by a replica that died before relaying them. */
  pollMs?: number;
  /**
   * The least time between the starts of two claim rounds. A commit that
   * comes within it of the last round waits for the next, with whatever else
   * commits meanwhile, so the commits of a busy moment leave in one claim
   * transaction instead of one each (a round costs one or two database round
   * trips whatever its size); at a trickle, rows leave at once.
   */
  gatherMs?: number;
  /** Told of every event once the broker has confirmed it and its row is deleted: after its commit, whichever path wrote it. */
  onPublished?: (envelope: Envelope) => void;
}

/** A round whose rows are published and confirmed, its deleting transaction not yet committed. */
interface HeldRound {
  client: PoolClient;
  envelopes: Envelope[];
}

const ignore = () => undefined;

interface ClaimedRow {
  id: string;
  message_id: string;
  routing_key: string;
  body: string;
  trace_context: string | null;
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

  constructor(
    private readonly broker: Broker,
    private readonly options: OutboxRelayOptions,
  ) {
    this.poller = setInterval(() => this.wake(), options.pollMs ?? 1_000);
    this.poller.unref();
    relays.add(this);
    registerOutboxGauges();
  }

  /** Rows waiting and the age of the oldest, in one cheap query; zeros when the database does not answer. */
  async backlog(): Promise<OutboxState> {
    try {
      const { rows } = await this.options.pool.query<{ rows: number; oldest: number | null }>(
        'SELECT count(*)::int AS rows, extract(epoch FROM now() - min(created_at))::float8 AS oldest FROM outbox',
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
    let held: HeldRound | undefined;
    let full = false;
    try {
      do {
        // A full batch means a backlog: the next round goes at once.
        if (!full) await this.spaced();
        this.again = false;
        this.lastRound = performance.now();
        // The round takes the held transaction over: it commits it, or rolls it back on failure.
        const previous = held;
        held = undefined;
        const round = await this.relayBatch(previous);
        held = round.held;
        this.failures = 0;
        full = round.published >= (this.options.batchSize ?? 200);
        if (full) this.again = true;
        // The round's rows are out; its COMMIT waits one gathering for a next round to carry it.
        if (held && !this.again && !this.stopped && !this.paused) await this.spaced();
      } while (this.again && !this.stopped && !this.paused);
      const last = held;
      held = undefined;
      if (last) await this.commit(last);
    } catch (err) {
      if (held) await this.abandon(held);
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
   * Claims a batch (skipping rows another replica holds) in a transaction
   * that deletes them, publishes them and awaits the broker's confirms. The
   * deleting transaction is answered still open (`held`), so that its COMMIT
   * can go in one round trip with the next claim; `previous`, the last
   * round's, is committed that way here. A round that claims nothing commits
   * at once. Whatever is not confirmed is rolled back and comes again.
   */
  private async relayBatch(previous: HeldRound | undefined): Promise<{ held: HeldRound | undefined; published: number }> {
    const channel = this.channel;
    if (!channel) {
      if (previous) await this.commit(previous);
      return { held: undefined, published: 0 };
    }
    const batch = this.options.batchSize ?? 200;
    const client = previous?.client ?? (await this.options.pool.connect());
    // A connection the server ends between statements must not be an uncaught error: the next query fails instead.
    if (!previous) client.on('error', ignore);
    try {
      // The deletes need not wait for the disk: one lost in a crash only brings its rows back to be published again.
      const results = (await client.query(
        `${previous ? 'COMMIT; ' : ''}BEGIN; SET LOCAL synchronous_commit TO off;
         DELETE FROM outbox WHERE id IN (SELECT id FROM outbox ORDER BY id LIMIT ${Number(batch)} FOR UPDATE SKIP LOCKED)
         RETURNING id, message_id, routing_key, body, trace_context`,
      )) as unknown as { rows: ClaimedRow[] }[];
      if (previous) this.announce(previous.envelopes);
      const rows = (results.at(-1)?.rows ?? []).sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
      if (rows.length === 0) {
        await this.commit({ client, envelopes: [] });
        return { held: undefined, published: 0 };
      }
      const envelopes = await Promise.all(rows.map((row) => this.publish(channel, row)));
      return { held: { client, envelopes }, published: rows.length };
    } catch (err) {
      // Nothing confirmed is deleted: the rows come back for the next round.
      await this.abandon({ client, envelopes: [] });
      throw err;
    }
  }

  /** Commits a round's deletes and gives its connection back. */
  private async commit(round: HeldRound): Promise<void> {
    try {
      await round.client.query('COMMIT');
    } catch (err) {
      this.release(round.client, err);
      throw err;
    }
    this.release(round.client);
    this.announce(round.envelopes);
  }

  /** Rolls a round back (its rows are published again) and gives its connection back. */
  private async abandon(round: HeldRound): Promise<void> {
    await round.client.query('ROLLBACK').catch(() => undefined);
    this.release(round.client, new Error('outbox round abandoned'));
  }

  private release(client: PoolClient, failure?: unknown): void {
    client.removeListener('error', ignore);
    client.release(failure instanceof Error ? failure : undefined);
  }

  /** Events whose rows are deleted for good: published and confirmed, their round committed. */
  private announce(envelopes: readonly Envelope[]): void {
    for (const envelope of envelopes) {
      outboxPublished.inc({ type: envelope.type });
      this.options.onPublished?.(envelope);
    }
  }

  private publish(channel: ConfirmChannel, row: ClaimedRow): Promise<Envelope> {
    const envelope = JSON.parse(row.body) as Envelope;
    return tracePublish(row.trace_context, this.broker.names.events, envelope, (traceHeaders) => this.send(channel, row, envelope, traceHeaders));
  }

  /** Publishes one row's event (with the trace headers its producer span gives, if any); resolves once confirmed. */
  private send(channel: ConfirmChannel, row: ClaimedRow, envelope: Envelope, traceHeaders: Record<string, unknown> | undefined): Promise<Envelope> {
    return new Promise<Envelope>((resolve, reject) => {
      try {
        channel.publish(
          this.broker.names.events,
          row.routing_key,
          Buffer.from(row.body),
          {
            persistent: true,
            userId: this.broker.user,
            messageId: row.message_id,
            type: row.routing_key,
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
  }
}
