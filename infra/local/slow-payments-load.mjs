// Head-of-line blocking, measured (issue 18): `count` payments with the slow
// test card (the sandbox answers it only after SANDBOX_SLOW_DELAY_MS, 30 s by
// default) are started and left in flight, and meanwhile `clients` closed
// loops send a create then a get of the session created, through the gateway,
// for `seconds`. Reports latency percentiles and 5xx counts of the creates and
// gets, and how many slow payments were still in flight when it ended (they
// must all be, or the figures are not of slots held). Pages go straight to the
// checkout service, as in payment-load.mjs.
import os from 'node:os';
import { quantile } from './open-load.mjs';

const SLOW_CARD = new URLSearchParams({ card_number: '4000000000000036', expiry: '12/34', cvc: '123', cardholder_name: 'Bench Buyer' }).toString();
/** After the last payment is sent, the time its start (card decryption, orders written) takes on a loaded machine: not what is measured. */
const SETTLE_MS = 3_000;

const sessionBody = (reference) =>
  JSON.stringify({ amount: '125.500', merchant_reference: reference, first_name: 'Amina', last_name: 'Ben Salah', email: 'amina@example.tn' });

/**
 * @param {{ baseUrl: string, checkoutUrl: string, keys: string[], count: number, clients: number, seconds: number }} options
 */
export async function slowPaymentsLoad({ baseUrl, checkoutUrl, keys, count, clients, seconds }) {
  let sequence = 0;
  const create = (key) => {
    sequence += 1;
    return fetch(`${baseUrl}/api/v1/gateway/sessions/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: sessionBody(`slow-${process.pid}-${Date.now()}-${sequence}`),
    });
  };

  const pages = [];
  await Promise.all(
    Array.from({ length: 16 }, async (_, worker) => {
      for (let i = worker; i < count; i += 16) {
        const res = await create(keys[i % keys.length]);
        if (res.status !== 201) throw new Error(`slow-payments: a session create answered ${res.status}: ${await res.text()}`);
        pages.push(new URL((await res.json()).checkout_url).pathname);
      }
    }),
  );

  let answered = 0;
  for (const page of pages) {
    fetch(`${checkoutUrl}${page}/pay`, { method: 'POST', body: SLOW_CARD, redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'en' } })
      .then((res) => res.body?.cancel())
      .catch(() => undefined)
      .finally(() => (answered += 1));
  }
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  const answeredBefore = answered;

  const samples = { create: [], get: [] };
  const statuses = { create: new Map(), get: new Map() };
  const timed = async (kind, call) => {
    const started = performance.now();
    let status;
    let body;
    try {
      const res = await call();
      status = res.status;
      body = status < 300 ? await res.json() : await res.text();
    } catch {
      status = 0;
    }
    samples[kind].push(performance.now() - started);
    statuses[kind].set(status, (statuses[kind].get(status) ?? 0) + 1);
    return { status, body };
  };
  const until = Date.now() + seconds * 1000;
  const startedAt = performance.now();
  const load1 = os.loadavg()[0];
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      let turn = client;
      while (Date.now() < until) {
        const key = keys[turn % keys.length];
        turn += clients;
        const created = await timed('create', () => create(key));
        if (created.status === 201) {
          await timed('get', () => fetch(`${baseUrl}/api/v1/gateway/sessions/${created.body.id}/`, { headers: { authorization: `Bearer ${key}` } }));
        }
      }
    }),
  );
  const elapsed = (performance.now() - startedAt) / 1000;
  const inFlightAtEnd = count - answered;

  const round = (v) => Math.round(v * 10) / 10;
  const figures = (values) => {
    const sorted = [...values].sort((a, b) => a - b);
    return { n: sorted.length, p50: round(quantile(sorted, 0.5)), p99: round(quantile(sorted, 0.99)), max: round(sorted.at(-1) ?? NaN) };
  };
  const fiveXx = (kind) => [...statuses[kind]].filter(([status]) => status >= 500 || status === 0).reduce((n, [, c]) => n + c, 0);
  const all = [...samples.create, ...samples.get].sort((a, b) => a - b);
  return {
    slowPayments: count,
    answeredBeforeMeasuring: answeredBefore,
    inFlightAtEnd,
    rps: Math.round(all.length / elapsed),
    p50: round(quantile(all, 0.5)),
    p99: round(quantile(all, 0.99)),
    create: { ...figures(samples.create), fiveXx: fiveXx('create'), statuses: Object.fromEntries(statuses.create) },
    get: { ...figures(samples.get), fiveXx: fiveXx('get'), statuses: Object.fromEntries(statuses.get) },
    loadAverage: { atStart: round(load1), atEnd: round(os.loadavg()[0]) },
  };
}
