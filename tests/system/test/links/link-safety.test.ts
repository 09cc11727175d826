/**
 * Payment links safe by default (D29 on D19), against the whole system (real
 * PostgreSQL, RabbitMQ, the sandbox acquirer): a closed link stops the
 * sessions it made before they start an attempt, deactivating a link cancels
 * its open sessions, link pages draw on a budget of their own, the QR codes
 * are drawn once and limited per address, and a link in a currency without a
 * rate is refused when it is made.
 */
import assert from 'node:assert/strict';
import type { PaymentLink, SessionDetail, SessionEventData, SessionList } from '@gateway/contracts';
import { metricValue, payOnPage, pollUntil, sessionRequest, TestSystem, type EventCapture, type Merchant } from '@gateway/testkit';

/** Sessions one address may ask of one link in a minute, and one link may make, in this system: low, so a flood is a handful of requests. */
const BUYER_LIMIT = 3;
const LINK_LIMIT = 4;
/** QR code images one address may fetch in a minute, in this system. */
const QR_LIMIT = 6;

describe('Payment links safe by default (D29)', function () {
  this.timeout(60_000);
  let system: TestSystem;
  let events: EventCapture;

  before(async () => {
    system = await TestSystem.start({
      serviceEnv: {
        // The test's X-Forwarded-For reaches checkout through the gateway: each request may come from an address of its own.
        'api-gateway': { TRUST_PROXY_HOPS: '1' },
        checkout: { TRUST_PROXY_HOPS: '2', PAYMENT_LINK_BUYER_LIMIT_PER_MINUTE: String(BUYER_LIMIT), PAYMENT_LINK_SESSIONS_PER_MINUTE: String(LINK_LIMIT), QR_PER_ADDRESS_PER_MINUTE: String(QR_LIMIT), PAYMENT_LINK_SWEEP_SECONDS: '1' },
      },
    });
    events = await system.captureEvents(['session.*']);
  });

  after(async () => {
    await events?.stop();
    await system?.shutdown();
  });

  const buyer = { first_name: 'Amina', last_name: 'Ben Salah', email: 'amina@example.com' };

  async function newLink(merchant: Merchant, body: Record<string, unknown>): Promise<PaymentLink> {
    const created = await system.api(merchant.testKey).post<PaymentLink>('/gateway/payment_links/', body);
    assert.equal(created.status, 201, created.text);
    return created.body;
  }

  /** A buyer's session from the link's page: its checkout URL. */
  async function openSession(link: PaymentLink, form: Record<string, string> = buyer): Promise<string> {
    const posted = await fetch(link.url, { method: 'POST', body: new URLSearchParams(form), redirect: 'manual' });
    assert.equal(posted.status, 303, await posted.text());
    return posted.headers.get('location') ?? '';
  }

  async function sessionsOf(merchant: Merchant): Promise<SessionDetail[]> {
    const list = await system.api(merchant.testKey).get<SessionList>('/gateway/sessions/list/?limit=100');
    assert.equal(list.status, 200, list.text);
    return Promise.all(list.body.data.map(async (item) => (await system.api(merchant.testKey).get<SessionDetail>(`/gateway/sessions/${item.id}/`)).body));
  }

  /** The sandbox acquirer's error code for the session's first attempt's order: 6 when it never saw one. */
  async function acquirerError(merchant: Merchant, session: SessionDetail | undefined): Promise<string> {
    return (await system.sandboxOrder(`${merchant.merchantId.slice(-8)}-${session?.order_number}-1`)).errorCode;
  }

  async function linkOf(merchant: Merchant, id: string): Promise<PaymentLink> {
    const read = await system.api(merchant.testKey).get<PaymentLink>(`/gateway/payment_links/${id}/`);
    assert.equal(read.status, 200, read.text);
    return read.body;
  }

  describe('a closed link stops its sessions', () => {
    it('when a link is deactivated after a buyer opened a session, then paying it with a good card answers that the link is no longer available, and nothing is paid', async () => {
      const merchant = await system.newMerchant();
      const link = await newLink(merchant, { description: 'Withdrawn', amount: '7.000', locale: 'en' });
      const checkoutUrl = await openSession(link);
      const deactivated = await system.api(merchant.testKey).post<PaymentLink>(`/gateway/payment_links/${link.id}/deactivate/`);
      assert.equal(deactivated.status, 200, deactivated.text);
      const paid = await payOnPage(checkoutUrl, { card_number: '4242 4242 4242 4242' });
      assert.equal(paid.status, 410, paid.html.slice(0, 400));
      assert.match(paid.html, /no longer available/);
      const [session] = await sessionsOf(merchant);
      assert.equal(session?.attempts.length, 0, 'no attempt started');
      assert.notEqual(session?.status, 'SUCCEEDED');
      assert.equal(await acquirerError(merchant, session), '6', 'the acquirer never saw an order');
      assert.equal((await linkOf(merchant, link.id)).payments_count, 0);
    });

    it('when a link expires after a buyer opened a session, then paying it answers the closed link page in the session language, no attempt starts, and the sweep cancels the session (session.canceled)', async () => {
      const merchant = await system.newMerchant();
      const link = await newLink(merchant, { description: 'Flash sale', amount: '3.000', locale: 'fr', expires_at: new Date(Date.now() + 2_000).toISOString() });
      const checkoutUrl = await openSession(link);
      await pollUntil(async () => (await fetch(link.url)).status === 410, 5_000, 'the link expired');
      // The link is checked before the session: the same page whether or not the sweep has canceled it yet.
      const paid = await payOnPage(checkoutUrl, { card_number: '4242424242424242' }, 'fr');
      assert.equal(paid.status, 410, paid.html.slice(0, 400));
      assert.match(paid.html, /Ce lien de paiement n’est plus disponible/);
      const [session] = await sessionsOf(merchant);
      assert.equal(session?.attempts.length, 0);
      assert.equal(await acquirerError(merchant, session), '6', 'the acquirer never saw an order');
      assert.equal((await linkOf(merchant, link.id)).payments_count, 0);
      const [canceled] = await events.waitFor<SessionEventData>('session.canceled', (e) => e.data.session.id === session?.id);
      assert.equal(canceled?.data.session.payment_link, link.id);
      assert.equal((await system.api(merchant.testKey).get<SessionDetail>(`/gateway/sessions/${session?.id}/`)).body.status, 'CANCELED');
    });

    it('when a link is used up (max_payments 1), then its other open session is canceled by the sweep (session.canceled) and the paid one stays paid', async () => {
      const merchant = await system.newMerchant();
      const link = await newLink(merchant, { description: 'One seat', amount: '5.000', locale: 'en', max_payments: 1 });
      const paidUrl = await openSession(link);
      await openSession(link, { ...buyer, email: 'late@example.com' });
      assert.equal((await payOnPage(paidUrl, { card_number: '4242424242424242' })).status, 200);
      await pollUntil(async () => (await linkOf(merchant, link.id)).payments_count === 1, 10_000, 'the payment counted on the link');
      const late = (await sessionsOf(merchant)).find((s) => s.buyer_email === 'late@example.com');
      const [canceled] = await events.waitFor<SessionEventData>('session.canceled', (e) => e.data.session.id === late?.id);
      assert.equal(canceled?.data.session.payment_link, link.id);
      const statuses = (await sessionsOf(merchant)).map((s) => `${s.buyer_email} ${s.status}`).sort();
      assert.deepEqual(statuses, ['amina@example.com SUCCEEDED', 'late@example.com CANCELED']);
    });
  });

  describe('deactivating a link', () => {
    it('when a link with open sessions is deactivated, then each open session is CANCELED as a cancel does it (session.canceled, with the link), and a paid one stays paid', async () => {
      // A dozen API calls within a second or so: more than the default test-mode budget allows, on a fast run.
      const merchant = await system.newMerchant({ limits: { account: 1000, create: 1000 } });
      const link = await newLink(merchant, { description: 'Season tickets', amount: '12.000', locale: 'en' });
      const paidUrl = await openSession(link);
      assert.equal((await payOnPage(paidUrl, { card_number: '4242424242424242' })).status, 200);
      const first = await openSession(link, { ...buyer, email: 'first@example.com' });
      await openSession(link, { ...buyer, email: 'second@example.com' });
      // A session of another link of the merchant is not touched.
      const other = await newLink(merchant, { description: 'Other', amount: '1.000' });
      await openSession(other);
      const deactivated = await system.api(merchant.testKey).post<PaymentLink>(`/gateway/payment_links/${link.id}/deactivate/`);
      assert.equal(deactivated.status, 200, deactivated.text);
      const sessions = await sessionsOf(merchant);
      const statusOf = (email: string, paymentLink = link.id) => sessions.find((s) => s.buyer_email === email && s.payment_link === paymentLink)?.status;
      assert.deepEqual(
        [statusOf('amina@example.com'), statusOf('first@example.com'), statusOf('second@example.com'), statusOf('amina@example.com', other.id)],
        ['SUCCEEDED', 'CANCELED', 'CANCELED', 'CREATED'],
      );
      for (const email of ['first@example.com', 'second@example.com']) {
        const id = sessions.find((s) => s.buyer_email === email)?.id;
        const read = await system.api(merchant.testKey).get<SessionDetail>(`/gateway/sessions/${id}/`);
        assert.equal(read.body.status, 'CANCELED');
        const [canceled] = await events.waitFor<SessionEventData>('session.canceled', (e) => e.data.session.id === id);
        assert.equal(canceled?.data.session.payment_link, link.id);
      }
      // The canceled buyer's page says so; nothing is paid.
      const late = await payOnPage(first, { card_number: '4242424242424242' });
      assert.notEqual(late.status, 200);
      assert.equal((await linkOf(merchant, link.id)).payments_count, 1);
    });
  });

  describe("the link page's own budget", () => {
    it("when buyers make sessions on a link faster than the merchant's Create budget, then they go on, and the merchant's API still creates", async () => {
      const merchant = await system.newMerchant({ limits: { create: 1 } });
      const link = await newLink(merchant, { description: 'Limited edition', amount: '3.000', locale: 'en' });
      // The link's create took the budget's one token: back within a second.
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      for (const email of ['a@example.com', 'b@example.com', 'c@example.com']) await openSession(link, { ...buyer, email });
      const created = await system.api(merchant.testKey).post('/gateway/sessions/', sessionRequest());
      assert.equal(created.status, 201, created.text);
    });

    it('when many addresses ask one link for sessions, then past its own limit a minute the page answers 429 with Retry-After, and no more sessions are made', async () => {
      const merchant = await system.newMerchant();
      const link = await newLink(merchant, { description: 'Popular', amount: '2.000', locale: 'en' });
      const statuses: number[] = [];
      let retryAfter: string | null = null;
      let page = '';
      // Twice the limit and one, each from an address of its own: however a minute's turn splits them, one minute sees more than the limit.
      for (let n = 1; n <= 2 * LINK_LIMIT + 1; n += 1) {
        const posted = await fetch(link.url, { method: 'POST', body: new URLSearchParams(buyer), redirect: 'manual', headers: { 'x-forwarded-for': `198.51.100.${n}`, 'accept-language': 'en' } });
        statuses.push(posted.status);
        if (posted.status === 429) [retryAfter, page] = [posted.headers.get('retry-after'), await posted.text()];
        else await posted.body?.cancel();
      }
      assert.ok(statuses.includes(429), `statuses ${statuses.join(',')}`);
      assert.ok(Number(retryAfter) >= 1 && Number(retryAfter) <= 60, `Retry-After ${retryAfter}`);
      assert.match(page, /Too many attempts/);
      const made = statuses.filter((status) => status === 303).length;
      assert.equal((await sessionsOf(merchant)).length, made);
      assert.ok(made <= 2 * LINK_LIMIT);
    });
  });

  describe('IPv6 buyers', () => {
    it('when addresses of one IPv6 /64 ask one link for sessions, then they count as one address: past its limit, 429', async () => {
      const merchant = await system.newMerchant();
      const link = await newLink(merchant, { description: 'Sixty-four', amount: '2.000', locale: 'en' });
      // One more than an address may, fewer than the link may, within one minute (a request starts a minute's count of its own).
      const intoMinute = Date.now() % 60_000;
      if (intoMinute > 55_000) await new Promise((resolve) => setTimeout(resolve, 60_200 - intoMinute));
      const statuses: number[] = [];
      for (let n = 1; n <= BUYER_LIMIT + 1; n += 1) {
        const posted = await fetch(link.url, { method: 'POST', body: new URLSearchParams(buyer), redirect: 'manual', headers: { 'x-forwarded-for': `2001:db8:5:6::${n.toString(16)}` } });
        await posted.body?.cancel();
        statuses.push(posted.status);
      }
      assert.deepEqual(statuses, [...Array<number>(BUYER_LIMIT).fill(303), 429]);
    });
  });

  describe('a currency without a rate', () => {
    it('when a link is made in a currency the merchant has no rate for, then it is refused 422 validation-error, currency_unsupported on currency, as a session is; TND and a rated currency are made', async () => {
      const merchant = await system.newMerchant();
      const api = system.api(merchant.testKey);
      const refused = await api.post('/gateway/payment_links/', { description: 'Tour', amount: '20.00', currency: 'EUR' });
      assert.equal(refused.status, 422, refused.text);
      assert.match(refused.headers.get('content-type') ?? '', /^application\/problem\+json/);
      const problem = refused.body as { type: string; errors: { field: string; code: string }[] };
      assert.match(problem.type, /validation-error$/);
      assert.deepEqual(problem.errors.map((e) => [e.field, e.code]), [['currency', 'currency_unsupported']]);
      // The session create's own refusal, word for word.
      const session = await api.post('/gateway/sessions/', sessionRequest({ amount: '20.00', currency: 'EUR' }));
      assert.deepEqual((session.body as { errors: unknown }).errors, problem.errors);
      assert.deepEqual((await api.get<{ data: unknown[] }>('/gateway/payment_links/')).body.data, [], 'no link was made');
      await newLink(merchant, { description: 'Local', amount: '20.000' });
      await system.admin(['rate', 'set', merchant.merchantId, '--mode', 'test', '--currency', 'EUR', '--rate', '3.3325']);
      assert.equal((await newLink(merchant, { description: 'Tour', amount: '20.00', currency: 'EUR' })).currency, 'EUR');
    });
  });

  describe('QR codes', () => {
    const drawn = async (format: 'svg' | 'png') => metricValue(await system.metricsOf('checkout'), 'checkout_qr_codes_drawn_total', [`format="${format}"`]) ?? 0;

    it('when a QR code is fetched twice, then it is drawn once and the second is the same image, from the cache', async () => {
      const merchant = await system.newMerchant();
      const link = await newLink(merchant, { description: 'Stall', amount: '1.000' });
      const address = { 'x-forwarded-for': '203.0.113.50' };
      for (const [format, url] of [['svg', link.qr_svg_url], ['png', `${link.url}/qr.png`]] as const) {
        const before = await drawn(format);
        const first = Buffer.from(await (await fetch(url, { headers: address })).arrayBuffer());
        assert.equal(await drawn(format), before + 1, `${format} drawn`);
        const second = await fetch(url, { headers: address });
        assert.equal(second.status, 200);
        assert.deepEqual(Buffer.from(await second.arrayBuffer()), first);
        assert.equal(await drawn(format), before + 1, `${format} not drawn again`);
      }
    });

    it('when one address fetches QR codes past its limit a minute, then it gets 429 with Retry-After, and another address still gets them', async () => {
      const merchant = await system.newMerchant();
      const link = await newLink(merchant, { description: 'Poster', amount: '1.000' });
      const statuses: number[] = [];
      let retryAfter: string | null = null;
      // Twice the limit and one: however a minute's turn splits them, one minute sees more than the limit.
      for (let n = 0; n < 2 * QR_LIMIT + 1; n += 1) {
        const fetched = await fetch(link.qr_svg_url, { headers: { 'x-forwarded-for': '203.0.113.60' } });
        statuses.push(fetched.status);
        if (fetched.status === 429) retryAfter = fetched.headers.get('retry-after');
        await fetched.body?.cancel();
      }
      assert.ok(statuses.includes(429), `statuses ${statuses.join(',')}`);
      assert.ok(Number(retryAfter) >= 1 && Number(retryAfter) <= 60, `Retry-After ${retryAfter}`);
      assert.equal((await fetch(link.qr_svg_url, { headers: { 'x-forwarded-for': '203.0.113.61' } })).status, 200);
    });

    it('when an address never comes back, then its counts of past minutes are forgotten by the sweep, as a link page\'s are', async () => {
      await system.db.query(`INSERT INTO checkout.qr_requests (address, minute, count) VALUES ('192.0.2.250', date_trunc('minute', now()) - interval '5 minutes', 7)`);
      await pollUntil(async () => (await system.db.query(`SELECT 1 FROM checkout.qr_requests WHERE address = '192.0.2.250'`)).length === 0, 5_000, 'the old count forgotten');
    });
  });
});
