// An open-model load of whole test-mode payments, driven over HTTP without a
// browser: create the session (API), load the hosted page, post the card form
// (answered with the page leaving for the merchant; a 303 to the result page is
// followed), and wait for session.succeeded on the broker.
// A payment is due every 1/rate s whatever the others are doing, and its latency
// runs from when it was due until both its result page and its event are in.
//
// Pages go straight to the checkout service, as the Kubernetes ingress routes
// /checkout/ (the gateway's pass-through is a convenience of single-entry local
// runs). Requests go over raw keep-alive sockets (open-load.mjs): the generator
// runs on the same two cores as the system, so its own cost matters. CPU by
// process over the run is reported per payment.
import amqp from 'amqplib';
import { HttpClient, openArrivals, quantile } from './open-load.mjs';
import { cpuWindow, perUnit } from './process-cpu.mjs';

/** The value of header `name` in a response head, or undefined. */
function header(head, name) {
  return new RegExp(`\\r\\n${name}:\\s*([^\\r]*)`, 'i').exec(head)?.[1];
}

const CARD = new URLSearchParams({ card_number: '4242424242424242', expiry: '12/34', cvc: '123', cardholder_name: 'Bench Buyer' }).toString();

/**
 * `bySecond` adds the slowest latency of the payments due in each second of the
 * run (how a cold start settles). With `savedCards` (key → { customer,
 * paymentMethod }, D24) each session is its customer's, paid in one click: the
 * saved card chosen and its security code typed.
 * @param {{ baseUrl: string, checkoutUrl: string, keys: string[], rate: number, seconds: number, amqpUrl: string, eventsExchange: string, processes: Map<number, string>, timeoutMs?: number, bySecond?: boolean, savedCards?: Map<string, { customer: string, paymentMethod: string }> }} options
 */
/** Creates a bench buyer's session of 125.500 TND through the API with `key` (`fields` over the usual ones); the gateway's answer. */
export function createBenchSession(api, key, reference, fields = {}) {
  return api.exchange({
    method: 'POST',
    path: '/api/v1/gateway/sessions/',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      amount: '125.500',
      merchant_reference: reference,
      first_name: 'Bench',
      last_name: 'Buyer',
      email: 'buyer@example.tn',
      return_url: 'https://shop.example/thanks',
      ...fields,
    }),
  });
}

export async function paymentLoad({ baseUrl, checkoutUrl, keys, rate, seconds, amqpUrl, eventsExchange, processes, timeoutMs = 10_000, bySecond = false, savedCards }) {
  const api = new HttpClient(baseUrl);
  const pages = new HttpClient(checkoutUrl);
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
  const slowest = new Array(Math.ceil(seconds)).fill(0);
  const failures = new Map();
  const fail = (why) => failures.set(why, (failures.get(why) ?? 0) + 1);
  let sequence = 0;

  async function onePayment(i, due) {
    sequence += 1;
    const key = keys[sequence % keys.length];
    const created = await createBenchSession(api, key, `pay-${process.pid}-${due.toFixed(3)}-${sequence}`, savedCards && { customer: savedCards.get(key).customer });
    if (created.status !== 201) return fail(`create ${created.status}`);
    const session = JSON.parse(created.text);
    const succeeded = new Promise((resolve) => waiting.set(session.id, resolve));
    const pagePath = new URL(session.checkout_url).pathname;
    const page = await pages.exchange({ method: 'GET', path: pagePath });
    if (page.status !== 200) return fail(`page ${page.status}`);
    // The check below reads the English page: the buyer asks for English (D18; the page is French by default).
    const form = savedCards ? new URLSearchParams({ payment_method: savedCards.get(key).paymentMethod, saved_cvc: '123' }).toString() : CARD;
    const paid = await pages.exchange({ method: 'POST', path: `${pagePath}/pay`, body: form, headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'en' } });
    // A payment that closed the session is answered at once; anything else goes to the result page.
    const result = paid.status === 303 ? await pages.exchange({ method: 'GET', path: header(paid.head, 'location'), headers: { 'accept-language': 'en' } }) : paid;
    if (!result.text.includes('Payment successful')) return fail(`result ${result.status}`);
    const timer = new Promise((resolve) => setTimeout(() => resolve('timeout'), timeoutMs));
    const outcome = await Promise.race([succeeded, timer]);
    waiting.delete(session.id);
    if (outcome === 'timeout') return fail('no session.succeeded');
    const latency = performance.now() - due;
    latencies.push(latency);
    const second = Math.floor(i / rate);
    slowest[second] = Math.max(slowest[second], latency);
  }

  const cpu = cpuWindow(processes);
  const elapsed = await openArrivals({ rate, seconds, run: onePayment, fail });
  const spent = cpu.stop();
  api.close();
  pages.close();
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
    cpuMsPerPayment: perUnit(spent, Math.max(1, latencies.length)),
    ...(bySecond ? { slowestBySecond: slowest.map(Math.round) } : {}),
  };
}
