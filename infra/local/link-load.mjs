// Two benchmark scenarios of the selling-without-code path (D19, D20):
//
// linkLoad: buyers of payment links at a fixed rate, each doing what a browser
// does: GET the link's page, POST its form (a session is made; 303 to its
// checkout_url), GET the checkout page. A buyer is due every 1/rate s whatever
// the others are doing; the whole latency runs from when it was due to the
// checkout page's last byte, and each step is timed besides. Pages go straight
// to the checkout service, as the Kubernetes ingress routes /pay/ and
// /checkout/; every buyer comes from this one address, so the bench raises the
// per-address limit of the link's page (PAYMENT_LINK_BUYER_LIMIT_PER_MINUTE)
// rather than writing X-Forwarded-For entries.
//
// mailQueue: buyer receipts through the notifier's mail queue to a real SMTP
// catcher, with the notifier's default settings: `count` session.succeeded
// events (clones of a real payment's event, each its own session, message id
// and buyer address) published at once, as a burst of payments would; mails/s
// from the first receipt written (the mail's created_at in the queue) to the last
// mail caught, and from the first event published.
import amqp from 'amqplib';
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { HttpClient, openArrivals, quantile } from './open-load.mjs';
import { cpuWindow, perUnit } from './process-cpu.mjs';

/** The value of header `name` in a response head, or undefined. */
function header(head, name) {
  return new RegExp(`\\r\\n${name}:\\s*([^\\r]*)`, 'i').exec(head)?.[1];
}

const round = (v) => Math.round(v * 10) / 10;
const percentiles = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: round(quantile(sorted, 0.5)), p95: round(quantile(sorted, 0.95)), p99: round(quantile(sorted, 0.99)), max: round(sorted.at(-1) ?? NaN) };
};

/** One fixed-price link per key (unlimited, as most shops sell): their page paths. */
export async function makeLinks({ baseUrl, keys }) {
  const api = new HttpClient(baseUrl);
  const paths = [];
  for (const key of keys) {
    const created = await api.exchange({
      method: 'POST',
      path: '/api/v1/gateway/payment_links/',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ description: 'Handmade bag', amount: '45.000', items: [{ name: 'Bag', quantity: 1, unit_price: '45.000' }], locale: 'en' }),
    });
    if (created.status !== 201) throw new Error(`payment link create answered ${created.status}: ${created.text}`);
    paths.push(new URL(JSON.parse(created.text).url).pathname);
  }
  api.close();
  return paths;
}

/**
 * @param {{ checkoutUrl: string, linkPaths: string[], rate: number, seconds: number, processes: Map<number, string>, timeoutMs?: number }} options
 */
export async function linkLoad({ checkoutUrl, linkPaths, rate, seconds, processes }) {
  const pages = new HttpClient(checkoutUrl);
  const steps = { page: [], form: [], checkout: [] };
  const whole = [];
  const failures = new Map();
  const fail = (why) => failures.set(why, (failures.get(why) ?? 0) + 1);
  const form = new URLSearchParams({ first_name: 'Amina', last_name: 'Ben Salah', email: 'amina@example.tn' }).toString();
  const headers = { 'accept-language': 'en' };

  async function oneBuyer(i, due) {
    const linkPath = linkPaths[i % linkPaths.length];
    let at = performance.now();
    const lap = (step) => {
      const now = performance.now();
      steps[step].push(now - at);
      at = now;
    };
    const page = await pages.exchange({ method: 'GET', path: linkPath, headers });
    if (page.status !== 200) return fail(`page ${page.status}`);
    lap('page');
    const posted = await pages.exchange({ method: 'POST', path: linkPath, body: form, headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' } });
    const location = header(posted.head, 'location');
    if (posted.status !== 303 || !location) return fail(`form ${posted.status}`);
    lap('form');
    const checkout = await pages.exchange({ method: 'GET', path: new URL(location).pathname, headers });
    if (checkout.status !== 200 || !checkout.text.includes('card_number')) return fail(`checkout ${checkout.status}`);
    lap('checkout');
    whole.push(performance.now() - due);
  }

  const cpu = cpuWindow(processes);
  const elapsed = await openArrivals({ rate, seconds, run: oneBuyer, fail });
  const spent = cpu.stop();
  pages.close();
  return {
    rate,
    buyersPerSecond: round(whole.length / elapsed),
    ...percentiles(whole),
    completed: whole.length,
    failed: Object.fromEntries(failures),
    steps: Object.fromEntries(Object.entries(steps).map(([name, values]) => [name, percentiles(values)])),
    cpuMsPerBuyer: perUnit(spent, Math.max(1, whole.length)),
  };
}

/**
 * @param {{ amqpUrl: string, eventsExchange: string, template: { content: Buffer, properties: object }, catcher: { mails: { envelope: { to: readonly string[] }, receivedAt: Date }[] }, notifierDbUrl: string, turnOnTestReceipts: (merchantId: string) => Promise<unknown>, count: number, timeoutMs?: number, processes: Map<number, string> }} options
 */
export async function mailQueue({ amqpUrl, eventsExchange, template, catcher, notifierDbUrl, turnOnTestReceipts, count, timeoutMs = 120_000, processes }) {
  const run = randomBytes(4).toString('hex');
  const domain = `mail-queue-${run}.example.tn`;
  const ours = () => catcher.mails.filter((mail) => mail.envelope.to.some((to) => to.endsWith(`@${domain}`)));
  const connection = await amqp.connect(amqpUrl, { noDelay: true });
  const channel = await connection.createConfirmChannel();
  const base = JSON.parse(template.content.toString('utf8'));
  // Test-mode receipts are off until the merchant turns them on (D29): on for the template's merchant, as its Settings page does (so the notifier forgets what it kept).
  await turnOnTestReceipts(base.data.merchant_id);

  const cpu = cpuWindow(processes);
  const published = Date.now();
  for (let i = 0; i < count; i += 1) {
    const id = `evt_mail${run}${String(i).padStart(12, '0')}`;
    const sessionId = `ps_mail${run}${String(i).padStart(14, '0')}`;
    const envelope = {
      ...base,
      id,
      occurred_at: new Date().toISOString(),
      data: { ...base.data, session: { ...base.data.session, id: sessionId, buyer: { ...base.data.session.buyer, email: `buyer${i}@${domain}` } } },
    };
    channel.publish(eventsExchange, 'session.succeeded', Buffer.from(JSON.stringify(envelope)), { ...template.properties, messageId: id, headers: {} });
  }
  await channel.waitForConfirms();
  const deadline = Date.now() + timeoutMs;
  while (ours().length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  const spent = cpu.stop();
  await connection.close();

  const caught = ours();
  const lastCaught = Math.max(...caught.map((mail) => mail.receivedAt.getTime()));
  const db = new pg.Client({ connectionString: notifierDbUrl, options: '-c search_path=notifier' });
  await db.connect();
  const { rows } = await db.query(`SELECT min(created_at) AS first, count(*)::int AS written, count(*) FILTER (WHERE status = 'sent')::int AS sent FROM mails WHERE recipient LIKE $1`, [`%@${domain}`]);
  await db.end();
  const firstWritten = rows[0]?.first ? new Date(rows[0].first).getTime() : NaN;
  const fromWritten = (lastCaught - firstWritten) / 1000;
  const fromPublished = (lastCaught - published) / 1000;
  return {
    count,
    written: rows[0]?.written ?? 0,
    sent: rows[0]?.sent ?? 0,
    caught: caught.length,
    secondsFromFirstWritten: round(fromWritten),
    mailsPerSecond: round(caught.length / fromWritten),
    secondsFromFirstPublished: round(fromPublished),
    mailsPerSecondFromPublished: round(caught.length / fromPublished),
    cpuMsPerMail: perUnit(spent, Math.max(1, caught.length)),
  };
}

/** A real payment's session.succeeded as the broker carried it: the template mailQueue clones. */
export async function succeededTemplate({ amqpUrl, eventsExchange, pay }) {
  const connection = await amqp.connect(amqpUrl);
  const channel = await connection.createChannel();
  const { queue } = await channel.assertQueue('', { exclusive: true, autoDelete: true });
  await channel.bindQueue(queue, eventsExchange, 'session.succeeded');
  const first = new Promise((resolve) => {
    void channel.consume(queue, (msg) => msg && resolve({ content: msg.content, properties: { ...msg.properties } }), { noAck: true });
  });
  await pay();
  const template = await first;
  await connection.close();
  const { persistent, userId, type, contentType, correlationId, timestamp } = template.properties;
  return { content: template.content, properties: { persistent: persistent ?? true, userId, type, contentType, correlationId, timestamp } };
}
