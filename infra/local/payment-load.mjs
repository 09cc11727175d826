// An open-model load of whole test-mode payments, driven over HTTP without a
// browser: create the session (API), load the hosted page, post the card form,
// follow the page to its result, and wait for session.succeeded on the broker.
// A payment is due every 1/rate s whatever the others are doing, and its latency
// runs from when it was due until both its result page and its event are in.
import amqp from 'amqplib';
import { quantile } from './open-load.mjs';

const CARD = new URLSearchParams({ card_number: '4242424242424242', expiry: '12/34', cvc: '123', cardholder_name: 'Bench Buyer' });

/**
 * @param {{ baseUrl: string, keys: string[], rate: number, seconds: number, amqpUrl: string, eventsExchange: string, timeoutMs?: number }} options
 */
export async function paymentLoad({ baseUrl, keys, rate, seconds, amqpUrl, eventsExchange, timeoutMs = 10_000 }) {
  const connection = await amqp.connect(amqpUrl, { noDelay: true });
  const channel = await connection.createChannel();
  const { queue } = await channel.assertQueue('', { exclusive: true, autoDelete: true });
  await channel.bindQueue(queue, eventsExchange, 'session.succeeded');
  const waiting = new Map();
  await channel.consume(
    queue,
    (msg) => {
      if (!msg) return;
      const id = JSON.parse(msg.content.toString('utf8')).data.session.id;
      waiting.get(id)?.();
    },
    { noAck: true },
  );

  const latencies = [];
  const failures = new Map();
  const fail = (why) => failures.set(why, (failures.get(why) ?? 0) + 1);
  let sequence = 0;

  async function onePayment(due) {
    sequence += 1;
    const key = keys[sequence % keys.length];
    const created = await fetch(`${baseUrl}/api/v1/gateway/sessions/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        amount: '125.500',
        merchant_reference: `pay-${process.pid}-${due.toFixed(3)}-${sequence}`,
        first_name: 'Bench',
        last_name: 'Buyer',
        email: 'buyer@example.tn',
        return_url: 'https://shop.example/thanks',
      }),
    });
    if (created.status !== 201) return fail(`create ${created.status}`);
    const session = await created.json();
    const succeeded = new Promise((resolve) => waiting.set(session.id, resolve));
    const page = await fetch(session.checkout_url);
    await page.text();
    if (page.status !== 200) return fail(`page ${page.status}`);
    const paid = await fetch(`${session.checkout_url}/pay`, { method: 'POST', body: CARD, redirect: 'manual' });
    await paid.text();
    if (paid.status !== 303) return fail(`pay ${paid.status}`);
    const result = await fetch(new URL(paid.headers.get('location'), session.checkout_url));
    const html = await result.text();
    if (!html.includes('Payment successful')) return fail(`result ${result.status}`);
    const timer = new Promise((resolve) => setTimeout(() => resolve('timeout'), timeoutMs));
    const outcome = await Promise.race([succeeded, timer]);
    waiting.delete(session.id);
    if (outcome === 'timeout') return fail('no session.succeeded');
    latencies.push(performance.now() - due);
  }

  const start = performance.now();
  const total = Math.round(rate * seconds);
  const inFlight = [];
  for (let i = 0; i < total; i += 1) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    inFlight.push(onePayment(due).catch((err) => fail(err.name ?? 'error')));
  }
  await Promise.all(inFlight);
  const elapsed = (performance.now() - start) / 1000;
  await connection.close();
  latencies.sort((a, b) => a - b);
  const round = (v) => Math.round(v * 10) / 10;
  return {
    rps: Math.round((latencies.length / elapsed) * 10) / 10,
    p50: round(quantile(latencies, 0.5)),
    p90: round(quantile(latencies, 0.9)),
    p99: round(quantile(latencies, 0.99)),
    max: round(latencies.at(-1) ?? NaN),
    completed: latencies.length,
    failed: Object.fromEntries(failures),
  };
}
