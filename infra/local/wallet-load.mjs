// An open-model load of whole Flouci payments (D26) in test mode, driven over
// HTTP as a browser without script would: create the session (API), load the
// hosted page, press "Pay with Flouci" (a hand-off page whose refresh names the
// sandbox's Flouci page), load that page, confirm with a phone that pays
// (answered by a 303 back to the attempt's return address on our page), follow
// the return until the page says the payment succeeded, and wait for
// session.succeeded on the broker. Meanwhile the sandbox posts Flouci's notice
// to our public notice route, which is verified too: its cost is in the window.
// A payment is due every 1/rate s whatever the others are doing, and its latency
// runs from when it was due until both the paid page and the event are in, as
// a card payment's does in payment-load.mjs, so the two sit side by side.
//
// Our pages go straight to the checkout service (as payment-load.mjs does);
// Flouci's page goes to the address the hand-off names. CPU by process over the
// run is reported per payment, and each step's p50/p99 beside the whole's: where
// a wallet payment's time goes.
import { createBenchSession } from './payment-load.mjs';
import amqp from 'amqplib';
import { HttpClient, openArrivals, quantile } from './open-load.mjs';
import { cpuWindow, perUnit } from './process-cpu.mjs';

/** A phone the sandbox's Flouci pays with (any 8 digits but its declined and never-completing ones). */
const PAYING_PHONE = '22123456';
const FORM = { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'en' };
const ENGLISH = { 'accept-language': 'en' };

/** The value of header `name` in a response head, or undefined. */
function header(head, name) {
  return new RegExp(`\\r\\n${name}:\\s*([^\\r]*)`, 'i').exec(head)?.[1];
}

/** The Flouci page a hand-off page refreshes to, or undefined. */
function handOffLink(html) {
  return /<meta http-equiv="refresh" content="0;\s*url=([^"]+)">/.exec(html)?.[1]?.replaceAll('&amp;', '&');
}

/**
 * session.succeeded of the sessions being waited for, from a queue of its own
 * on the events exchange: `wait(id)` resolves when the session's event is in,
 * or with 'timeout' after `timeoutMs`.
 */
async function succeededEvents(amqpUrl, eventsExchange, timeoutMs) {
  const connection = await amqp.connect(amqpUrl, { noDelay: true });
  const channel = await connection.createChannel();
  const { queue } = await channel.assertQueue('', { exclusive: true, autoDelete: true });
  await channel.bindQueue(queue, eventsExchange, 'session.succeeded');
  const waiting = new Map();
  await channel.consume(queue, (msg) => msg && waiting.get(JSON.parse(msg.content.toString('utf8')).data.session.id)?.(), { noAck: true });
  return {
    /** Starts waiting for `id`, before its payment can succeed: its event, or 'timeout'. */
    expect(id) {
      let timer;
      const arrived = new Promise((resolve) => {
        waiting.set(id, resolve);
        timer = setTimeout(() => resolve('timeout'), timeoutMs);
      });
      return arrived.finally(() => {
        clearTimeout(timer);
        waiting.delete(id);
      });
    },
    close: () => connection.close(),
  };
}

/**
 * Flouci payments at `rate` for `seconds`: throughput, p50/p90/p99 of the whole
 * journey, failures by step, and CPU per payment by process (`processes` maps
 * the system's pids to names).
 * @param {{ baseUrl: string, checkoutUrl: string, keys: string[], rate: number, seconds: number, amqpUrl: string, eventsExchange: string, processes: Map<number, string>, timeoutMs?: number }} options
 */
export async function walletLoad({ baseUrl, checkoutUrl, keys, rate, seconds, amqpUrl, eventsExchange, processes, timeoutMs = 10_000 }) {
  const api = new HttpClient(baseUrl);
  const pages = new HttpClient(checkoutUrl);
  // Flouci's pages, by origin: the sandbox's address, as the hand-off names it.
  const flouci = new Map();
  const flouciAt = (origin) => flouci.get(origin) ?? flouci.set(origin, new HttpClient(origin)).get(origin);
  const events = await succeededEvents(amqpUrl, eventsExchange, timeoutMs);

  const latencies = [];
  const steps = { create: [], page: [], handOff: [], flouciPage: [], confirm: [], return: [], event: [] };
  const failures = new Map();
  const fail = (why) => failures.set(why, (failures.get(why) ?? 0) + 1);
  let sequence = 0;

  /** Our page from the return address to where it ends (a 303 within the page is followed once): whether it says paid. */
  async function returned(returnUrl) {
    const back = await pages.exchange({ method: 'GET', path: returnUrl.pathname + returnUrl.search, headers: ENGLISH });
    const end = back.status === 303 ? await pages.exchange({ method: 'GET', path: new URL(header(back.head, 'location'), returnUrl).pathname, headers: ENGLISH }) : back;
    return end.text.includes('Payment successful') ? undefined : `return ${back.status}/${end.status}`;
  }

  async function onePayment(i, due) {
    let at = due;
    const lap = (step) => {
      const now = performance.now();
      steps[step].push(now - at);
      at = now;
    };
    sequence += 1;
    const key = keys[sequence % keys.length];
    const created = await createBenchSession(api, key, `flouci-${process.pid}-${due.toFixed(3)}-${sequence}`);
    if (created.status !== 201) return fail(`create ${created.status}`);
    lap('create');
    const session = JSON.parse(created.text);
    const pagePath = new URL(session.checkout_url).pathname;
    const page = await pages.exchange({ method: 'GET', path: pagePath, headers: ENGLISH });
    if (page.status !== 200 || !page.text.includes('Pay with Flouci')) return fail(`page ${page.status}`);
    lap('page');
    const handOff = await pages.exchange({ method: 'POST', path: `${pagePath}/wallet/flouci`, body: 'language=en', headers: FORM });
    const link = handOffLink(handOff.text);
    if (handOff.status !== 200 || !link) return fail(`hand-off ${handOff.status}`);
    lap('handOff');
    const flouciPage = new URL(link);
    const sandbox = flouciAt(flouciPage.origin);
    const shown = await sandbox.exchange({ method: 'GET', path: flouciPage.pathname });
    if (shown.status !== 200) return fail(`flouci page ${shown.status}`);
    lap('flouciPage');
    // Confirming pays: from here on the session's event may come.
    const succeeded = events.expect(session.id);
    const answered = await sandbox.exchange({ method: 'POST', path: flouciPage.pathname, body: `phone=${PAYING_PHONE}&action=confirm`, headers: FORM });
    const back = header(answered.head, 'location');
    if (answered.status !== 303 || !back) return fail(`flouci answer ${answered.status}`);
    lap('confirm');
    const notPaid = await returned(new URL(back));
    if (notPaid) return fail(notPaid);
    lap('return');
    if ((await succeeded) === 'timeout') return fail('no session.succeeded');
    lap('event');
    latencies.push(performance.now() - due);
  }

  const cpu = cpuWindow(processes);
  const elapsed = await openArrivals({ rate, seconds, run: onePayment, fail });
  const spent = cpu.stop();
  api.close();
  pages.close();
  for (const client of flouci.values()) client.close();
  await events.close();
  latencies.sort((a, b) => a - b);
  const round = (v) => Math.round(v * 10) / 10;
  const percentiles = (values) => {
    const sorted = values.sort((a, b) => a - b);
    return { p50: round(quantile(sorted, 0.5)), p99: round(quantile(sorted, 0.99)) };
  };
  return {
    rps: Math.round((latencies.length / elapsed) * 10) / 10,
    p50: round(quantile(latencies, 0.5)),
    p90: round(quantile(latencies, 0.9)),
    p99: round(quantile(latencies, 0.99)),
    max: round(latencies.at(-1) ?? NaN),
    completed: latencies.length,
    failed: Object.fromEntries(failures),
    steps: Object.fromEntries(Object.entries(steps).map(([name, values]) => [name, percentiles(values)])),
    cpuMsPerPayment: perUnit(spent, Math.max(1, latencies.length)),
  };
}
