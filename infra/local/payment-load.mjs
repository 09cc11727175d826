// An open-model load of whole test-mode payments, driven over HTTP without a
// browser: create the session (API), load the hosted page, post the card form,
// follow the page to its result, and wait for session.succeeded on the broker.
// A payment is due every 1/rate s whatever the others are doing, and its latency
// runs from when it was due until both its result page and its event are in.
//
// Pages go straight to the checkout service, as the Kubernetes ingress routes
// /checkout/ (the gateway's pass-through is a convenience of single-entry local
// runs). Requests use node:http with kept-alive connections: the generator runs
// on the same two cores as the system, so its own cost matters.
import { Agent, request } from 'node:http';
import amqp from 'amqplib';
import { quantile } from './open-load.mjs';

const agent = new Agent({ keepAlive: true, maxSockets: 512 });

/** One HTTP exchange; resolves with the status, the headers and the body text. */
function exchange(method, url, { body, headers = {} } = {}) {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const payload = body === undefined ? undefined : Buffer.from(body);
    const req = request(
      { hostname: target.hostname, port: target.port, path: `${target.pathname}${target.search}`, method, agent, headers: payload ? { ...headers, 'content-length': payload.length } : headers },
      (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const CARD = new URLSearchParams({ card_number: '4242424242424242', expiry: '12/34', cvc: '123', cardholder_name: 'Bench Buyer' }).toString();

/**
 * @param {{ baseUrl: string, checkoutUrl: string, keys: string[], rate: number, seconds: number, amqpUrl: string, eventsExchange: string, timeoutMs?: number }} options
 */
export async function paymentLoad({ baseUrl, checkoutUrl, keys, rate, seconds, amqpUrl, eventsExchange, timeoutMs = 10_000 }) {
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
    const created = await exchange('POST', `${baseUrl}/api/v1/gateway/sessions/`, {
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
    const session = JSON.parse(created.text);
    const succeeded = new Promise((resolve) => waiting.set(session.id, resolve));
    const pageUrl = `${checkoutUrl}${new URL(session.checkout_url).pathname}`;
    const page = await exchange('GET', pageUrl);
    if (page.status !== 200) return fail(`page ${page.status}`);
    const paid = await exchange('POST', `${pageUrl}/pay`, { body: CARD, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    if (paid.status !== 303) return fail(`pay ${paid.status}`);
    const result = await exchange('GET', new URL(paid.headers.location, pageUrl).toString());
    if (!result.text.includes('Payment successful')) return fail(`result ${result.status}`);
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
