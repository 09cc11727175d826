// The refund and capture paths under an open-model load: test-mode sessions are paid first
// (create, hosted page, card form), then PARTIAL refunds of 1.000 TND leave at a
// fixed rate, spread over those sessions, each latency measured from when its
// refund was due until its answer. Each refund is followed at once by a read of
// its session (the merchant's usual next call), whose `amount_refunded` is
// checked against the refunds answered so far: a read that does not show a
// refund already answered counts as stale.
import Big from 'big.js';
import { HttpClient, openLoad, quantile } from './open-load.mjs';

const CARD = new URLSearchParams({ card_number: '4242424242424242', expiry: '12/34', cvc: '123', cardholder_name: 'Bench Buyer' }).toString();

/**
 * Pays `count` sessions, spread over the merchants' `keys`; resolves with { key, id, refunded } of each.
 * With `captureMethod` manual (D22) each payment is only held: the session is AUTHORIZED, ready for a capture.
 * @param {{ baseUrl: string, checkoutUrl: string, keys: string[], count: number, captureMethod?: 'automatic' | 'manual' }} options
 */
export async function paidSessions({ baseUrl, checkoutUrl, keys, count, captureMethod = 'automatic' }) {
  const api = new HttpClient(baseUrl);
  const pages = new HttpClient(checkoutUrl);
  const paid = [];
  const payOne = async (i) => {
    const key = `Bearer ${keys[i % keys.length]}`;
    const created = await api.exchange({
      method: 'POST',
      path: '/api/v1/gateway/sessions/',
      headers: { authorization: key, 'content-type': 'application/json' },
      body: JSON.stringify({
        amount: '125.500',
        merchant_reference: `${captureMethod === 'manual' ? 'capture' : 'refund'}-${process.pid}-${Date.now()}-${i}`,
        first_name: 'Bench',
        last_name: 'Buyer',
        email: 'buyer@example.tn',
        capture_method: captureMethod,
      }),
    });
    if (created.status !== 201) throw new Error(`create answered ${created.status}`);
    const session = JSON.parse(created.text);
    const pagePath = new URL(session.checkout_url).pathname;
    await pages.exchange({ method: 'GET', path: pagePath });
    const answer = await pages.exchange({ method: 'POST', path: `${pagePath}/pay`, body: CARD, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    if (answer.status !== 303 && answer.status !== 200) throw new Error(`pay answered ${answer.status}`);
    // What the bench has refunded of it so far, kept across runs: each run's reads are checked against every refund answered before.
    paid.push({ key, id: session.id, refunded: new Big(0) });
  };
  for (let i = 0; i < count; i += 10) await Promise.all(Array.from({ length: Math.min(10, count - i) }, (_, j) => payOne(i + j)));
  api.close();
  pages.close();
  return paid;
}

/**
 * Refunds at `rate` a second for `seconds` over `sessions`, each answered refund
 * then read back. Returns throughput, refund latency percentiles, and how many
 * reads missed a refund already answered.
 */
export async function refundLoad({ baseUrl, sessions, rate, seconds }) {
  const reader = new HttpClient(baseUrl);
  const reads = [];
  let stale = 0;
  let sequence = 0;
  const r = await openLoad({
    url: baseUrl,
    rate,
    seconds,
    next: () => {
      const target = sessions[sequence % sessions.length];
      sequence += 1;
      return {
        method: 'POST',
        path: `/api/v1/gateway/sessions/${target.id}/refund/`,
        headers: { authorization: target.key, 'content-type': 'application/json' },
        body: JSON.stringify({ refund_type: 'PARTIAL', amount: '1.000', reason: 'bench' }),
        onAnswer: (status) => {
          if (status !== 200) return;
          target.refunded = target.refunded.plus('1.000');
          const expected = target.refunded;
          reads.push(
            reader.exchange({ method: 'GET', path: `/api/v1/gateway/sessions/${target.id}/`, headers: { authorization: target.key } }).then((read) => {
              if (read.status !== 200 || new Big(JSON.parse(read.text).amount_refunded).lt(expected)) stale += 1;
            }),
          );
        },
      };
    },
  });
  await Promise.all(reads);
  reader.close();
  return { ...summary(r), staleReads: stale };
}

/**
 * Captures (D22) at `rate` a second for `seconds`, each of another of the
 * AUTHORIZED `sessions` (one capture per session: give at least rate ×
 * seconds), 100.000 of each 125.500 hold, so the rest is released. Returns
 * throughput, latency percentiles and the answers other than 200.
 */
export async function captureLoad({ baseUrl, sessions, rate, seconds }) {
  let sequence = 0;
  const r = await openLoad({
    url: baseUrl,
    rate,
    seconds,
    next: () => {
      const target = sessions[sequence];
      if (!target) throw new Error(`only ${sessions.length} held sessions for ${rate}/s over ${seconds} s`);
      sequence += 1;
      return {
        method: 'POST',
        path: `/api/v1/gateway/sessions/${target.id}/capture/`,
        headers: { authorization: target.key, 'content-type': 'application/json' },
        body: JSON.stringify({ amount: '100.000' }),
      };
    },
  });
  return summary(r);
}

/** Throughput and latency percentiles (ms) of an open-load run, and its answers other than 200. */
function summary(r) {
  const round = (v) => Math.round(v * 10) / 10;
  return {
    rps: Math.round((r.latencies.length / r.seconds) * 10) / 10,
    p50: round(quantile(r.latencies, 0.5)),
    p90: round(quantile(r.latencies, 0.9)),
    p99: round(quantile(r.latencies, 0.99)),
    max: round(r.latencies.at(-1) ?? NaN),
    non2xx: [...r.statuses].filter(([status]) => status !== 200).reduce((n, [, c]) => n + c, 0),
    errors: r.errors,
  };
}
