// Webhook delivery benchmarks for one dispatcher process. Events are committed
// to an outbox in the benchmark's own schema and published by the same
// OutboxRelay the services use, so "commit" means what it means in the
// system; the receiver (webhook-receiver.mjs, its own process) verifies every
// signature and notes each arrival. Clocks are the same machine's.
//
//   saturated: a backlog of events published at once; deliveries/s from the
//              first arrival to the last. With fan-out, to merchants of their
//              own (as many as the others) that have, besides the default
//              endpoint, FAN_OUT - 1 managed endpoints (issue 19) wanting every
//              event on other ports: each event is FAN_OUT deliveries, each
//              signed with its endpoint's secret.
//   open rate: events committed at a fixed rate; latency from each commit to
//              its arrival at the receiver.
import { fork } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { quantile } from './open-load.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const now = () => performance.timeOrigin + performance.now();

/** Endpoints each event of the fan-out merchants goes to. */
export const FAN_OUT = 3;

/**
 * Sets up merchants' endpoints on a receiver process and an outbox to commit
 * events into. `rpc` is a connected RpcClient; `merchants` their ids.
 */
export async function webhookBench({ rpc, merchants, dbUrl, amqpUrl, prefix }) {
  const receiver = fork(path.join(here, 'webhook-receiver.mjs'), { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const next = () => new Promise((resolve) => receiver.once('message', resolve));
  await next();
  // Each merchant gets a path of its own on one of the receiver's ports.
  const paths = merchants.map((_, i) => `/hooks/${i}`);
  const secrets = {};
  const endpointOf = [];
  const answer = next();
  receiver.send({ secrets: {} });
  const { ready: origins } = await answer;
  for (const [i, merchantId] of merchants.entries()) {
    const url = `${origins[i % origins.length]}${paths[i]}`;
    const { body } = await rpc.call('webhook_endpoint.provision', { merchant_id: merchantId, mode: 'test', url });
    secrets[paths[i]] = body.webhook_secret;
    endpointOf.push(url);
  }
  // The fan-out merchants: the same number, endpoints spread over the same ports, no payments of their own.
  const fanOutMerchants = [];
  for (const i of merchants.keys()) {
    const { body: merchant } = await rpc.call('merchant.create', { name: `Bench Fan-out Shop ${i}` });
    fanOutMerchants.push(merchant.merchant_id);
    const base = `/fan-out/${i}`;
    const { body } = await rpc.call('webhook_endpoint.provision', { merchant_id: merchant.merchant_id, mode: 'test', url: `${origins[i % origins.length]}${base}` });
    secrets[base] = body.webhook_secret;
    const context = { merchant_id: merchant.merchant_id, livemode: false, order_prefix: merchant.order_prefix, merchant_name: 'bench', request_id: `bench-fan-out-${i}` };
    for (let k = 1; k < FAN_OUT; k += 1) {
      const extra = `${base}/${k}`;
      const made = await rpc.call('webhook_endpoint.create', { context, body: { url: `${origins[(i + k) % origins.length]}${extra}`, enabled_events: ['*'] } });
      secrets[extra] = made.body.secret;
    }
  }
  const set = next();
  receiver.send({ secrets });
  await set;

  const pg = (await import('pg')).default;
  const { createPool, migrate } = await import('@gateway/db');
  const { Broker, OutboxRelay, enqueue, eventEnvelope, messagingMigrations } = await import('@gateway/messaging');
  const { createLogger } = await import('@gateway/observability');
  const { newId } = await import('@gateway/contracts');
  const admin = new pg.Client({ connectionString: dbUrl });
  await admin.connect();
  await admin.query('CREATE SCHEMA IF NOT EXISTS bench_outbox');
  await admin.end();
  await migrate(dbUrl, 'bench_outbox', [messagingMigrations]);
  const pool = createPool({ url: dbUrl, schema: 'bench_outbox', max: 8, applicationName: 'bench' });
  const log = createLogger({ service: 'bench', level: 'warn' });
  const broker = new Broker({ url: amqpUrl, prefix, log });
  await broker.start();
  const relay = await broker.register(new OutboxRelay(broker, { pool, log, gatherMs: 2 }));

  let sequence = 0;
  const eventOf = (group) => {
    sequence += 1;
    const merchantId = group[sequence % group.length];
    const id = newId('ps');
    return eventEnvelope(
      'session.succeeded',
      {
        merchant_id: merchantId,
        webhook_url: '',
        session: {
          id,
          order_number: `BEN-${String(sequence).padStart(6, '0')}`,
          merchant_reference: `bench-${sequence}`,
          order_id: '',
          amount: '125.500',
          currency: 'TND',
          description: 'Two books',
          status: 'SUCCEEDED',
          livemode: false,
          buyer: { first_name: 'Amina', last_name: 'Ben Salah', email: 'amina@example.tn', phone: '' },
          items: [],
          metadata: { cart: String(sequence) },
          original: { amount: '125.500', currency: 'TND', rate: '1.000000' },
          paid_at: new Date().toISOString(),
          payment: { method: 'card', card_brand: 'visa', card_last_four: '4242', card_country: 'TN', fee_amount: '2.083', net_amount: '123.417' },
        },
      },
      id,
    );
  };
  const event = () => eventOf(merchants);

  /** Commits `events` in one transaction; resolves with the commit time. */
  async function commit(events) {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await enqueue(client, events);
      await client.query('COMMIT');
      const at = now();
      relay.wake();
      return at;
    } finally {
      client.release();
    }
  }

  async function report() {
    const got = next();
    receiver.send({ report: true });
    return got;
  }

  async function waitForArrivals(expected, timeoutMs, collected) {
    const deadline = Date.now() + timeoutMs;
    while (collected.size < expected && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      const { arrivals, bad } = await report();
      collected.bad += bad;
      // One delivery per event and endpoint: a repeat at the same endpoint counts once.
      for (const [id, at, where] of arrivals) {
        const key = `${id} ${where}`;
        if (!collected.has(key)) collected.set(key, at);
      }
    }
  }

  return {
    endpoints: endpointOf,
    /**
     * A backlog of `count` events, committed in batches as fast as possible,
     * each to one endpoint or, with `fanOut`, to FAN_OUT: rps is deliveries a second.
     */
    async saturated(count, { fanOut = false } = {}) {
      await report();
      const collected = Object.assign(new Map(), { bad: 0 });
      const endpoints = fanOut ? FAN_OUT : 1;
      const make = fanOut ? () => eventOf(fanOutMerchants) : event;
      for (let i = 0; i < count; i += 500) await commit(Array.from({ length: Math.min(500, count - i) }, make));
      await waitForArrivals(count * endpoints, 120_000, collected);
      const times = [...collected.values()].sort((a, b) => a - b);
      const seconds = ((times.at(-1) ?? 0) - (times[0] ?? 0)) / 1000;
      const rps = Math.round(collected.size / seconds);
      return { endpointsPerEvent: endpoints, events: count, delivered: collected.size, sent: count * endpoints, badSignatures: collected.bad, rps, eventsPerSecond: Math.round(rps / endpoints), seconds: Math.round(seconds * 10) / 10 };
    },
    /** `rate` events a second for `seconds`, one commit each, each due at its own time. */
    async openRate(rate, seconds) {
      await report();
      const collected = Object.assign(new Map(), { bad: 0 });
      const committed = new Map();
      const total = Math.round(rate * seconds);
      const start = now();
      const inFlight = [];
      for (let i = 0; i < total; i += 1) {
        const due = start + (i * 1000) / rate;
        const wait = due - now();
        if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
        const e = event();
        inFlight.push(commit([e]).then((at) => committed.set(e.id, at)));
      }
      await Promise.all(inFlight);
      await waitForArrivals(total, 60_000, collected);
      const latencies = [];
      for (const [key, arrived] of collected) {
        const at = committed.get(key.split(' ')[0]);
        if (at !== undefined) latencies.push(arrived - at);
      }
      latencies.sort((a, b) => a - b);
      const round = (v) => Math.round(v * 10) / 10;
      return {
        rps: rate,
        delivered: collected.size,
        sent: total,
        badSignatures: collected.bad,
        p50: round(quantile(latencies, 0.5)),
        p90: round(quantile(latencies, 0.9)),
        p99: round(quantile(latencies, 0.99)),
        max: round(latencies.at(-1) ?? NaN),
      };
    },
    async close() {
      await broker.stop();
      await pool.end();
      receiver.send({ exit: true });
    },
  };
}
