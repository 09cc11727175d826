/**
 * A payment link paid at most max_payments times (D19), against the whole
 * system: buyers racing over HTTP to pay a single-use (and a two-use) link
 * are charged exactly that many times at the sandbox, the others refused
 * with a clear page; a declined card gives its slot back; a slot whose
 * answer was lost is given back once its session is found not paying, and
 * kept while it is. And the references links keep for their sessions: a
 * merchant cannot take one through the API, and a session of the merchant's
 * own under a link's next reference is never answered to the link's buyer.
 */
import assert from 'node:assert/strict';
import type { PaymentLink, SessionDetail, SessionList } from '@gateway/contracts';
import { payOnPage, pollUntil, TestSystem, type Merchant, type PageAnswer } from '@gateway/testkit';
import { chargesAtSandbox } from '../under-load.js';

const buyer = { first_name: 'Amina', last_name: 'Ben Salah', email: 'amina@example.com' };

describe('Payment link slots', function () {
  this.timeout(120_000);
  let system: TestSystem;

  before(async () => {
    system = await TestSystem.start({ serviceEnv: { checkout: { PAYMENT_LINK_BUYER_LIMIT_PER_MINUTE: '1000', PAYMENT_LINK_SLOT_CHECK_MARGIN_MS: '0' } } });
  });

  after(async () => {
    await system?.shutdown();
  });

  const newMerchant = () => system.newMerchant({ limits: { account: 1000, create: 1000 } });

  async function newLink(merchant: Merchant, body: Record<string, unknown>): Promise<PaymentLink> {
    const created = await system.api(merchant.testKey).post<PaymentLink>('/gateway/payment_links/', { locale: 'en', ...body });
    assert.equal(created.status, 201, created.text);
    return created.body;
  }

  /** A buyer's session on the link: the form posted, the 303's checkout URL. */
  async function checkoutUrlOf(link: PaymentLink): Promise<string> {
    const posted = await fetch(link.url, { method: 'POST', body: new URLSearchParams(buyer), redirect: 'manual', headers: { 'accept-language': 'en' } });
    assert.equal(posted.status, 303, await posted.text());
    return posted.headers.get('location') ?? '';
  }

  async function sessionAt(merchant: Merchant, checkoutUrl: string): Promise<SessionDetail> {
    const list = await system.api(merchant.testKey).get<SessionList>('/gateway/sessions/list/?limit=100');
    for (const item of list.body.data) {
      const read = await system.api(merchant.testKey).get<SessionDetail>(`/gateway/sessions/${item.id}/`);
      if (read.body.checkout_url === checkoutUrl) return read.body;
    }
    throw new Error(`no session has ${checkoutUrl}`);
  }

  async function allSessions(merchant: Merchant): Promise<SessionDetail[]> {
    const list = await system.api(merchant.testKey).get<SessionList>('/gateway/sessions/list/?limit=100');
    return Promise.all(list.body.data.map(async (item) => (await system.api(merchant.testKey).get<SessionDetail>(`/gateway/sessions/${item.id}/`)).body));
  }

  async function totalCharges(merchant: Merchant): Promise<number> {
    let charged = 0;
    for (const session of await allSessions(merchant)) charged += await chargesAtSandbox(system, session.id);
    return charged;
  }

  const paid = (answer: PageAnswer) => /Payment successful/.test(answer.html);
  const refused = (answer: PageAnswer) =>
    (answer.status === 409 && /Not available right now/.test(answer.html) && /Nothing has been charged/.test(answer.html)) ||
    (answer.status === 410 && /No longer available/.test(answer.html));

  async function heldSlots(linkId: string): Promise<number> {
    const rows = await system.db.query<{ held: number }>('SELECT count(*)::int AS held FROM checkout.payment_link_sessions WHERE link_id = $1 AND attempt_id IS NOT NULL', [linkId]);
    return rows[0]?.held ?? 0;
  }

  for (const maxPayments of [1, 2]) {
    it(`when 6 buyers pay a link of max_payments ${maxPayments} at once, then exactly ${maxPayments} are charged at the sandbox and the others get a page saying it is not available, nothing charged`, async () => {
      const merchant = await newMerchant();
      const link = await newLink(merchant, { description: 'Last one in stock', amount: '30.000', max_payments: maxPayments });
      const checkoutUrls = await Promise.all(Array.from({ length: 6 }, () => checkoutUrlOf(link)));
      const answers = await Promise.all(checkoutUrls.map((url) => payOnPage(url, { card_number: '4242424242424242' })));

      assert.equal(answers.filter(paid).length, maxPayments, answers.map((a) => a.status).join(','));
      assert.equal(answers.filter(refused).length, 6 - maxPayments, answers.map((a) => `${a.status} ${a.html.slice(0, 300)}`).join('\n'));
      assert.equal(await totalCharges(merchant), maxPayments);
      const sessions = await allSessions(merchant);
      assert.equal(sessions.filter((s) => s.status === 'SUCCEEDED').length, maxPayments);
      // The refused sessions started no attempt: they could still pay if a slot came free.
      assert.deepEqual(sessions.filter((s) => s.status !== 'SUCCEEDED').map((s) => [s.status, s.attempts.length]), Array.from({ length: 6 - maxPayments }, () => ['CREATED', 0]));

      await pollUntil(async () => (await system.api(merchant.testKey).get<PaymentLink>(`/gateway/payment_links/${link.id}/`)).body.payments_count === maxPayments, 15_000, 'payments counted');
      assert.equal(await heldSlots(link.id), 0, 'the paid slots became payments');
      const page = await fetch(link.url, { headers: { 'accept-language': 'en' } });
      assert.equal(page.status, 410);
      // A refused buyer coming back to pay is told it is gone for good.
      const late = checkoutUrls[answers.findIndex(refused)] ?? '';
      const again = await payOnPage(late, { card_number: '4242424242424242' });
      assert.equal(again.status, 410);
      assert.match(again.html, /No longer available/);
      assert.equal(await totalCharges(merchant), maxPayments);
    });
  }

  it('when a card is declined, then its slot is given back and the next buyer pays; each buyer charged only for what was approved', async () => {
    const merchant = await newMerchant();
    const link = await newLink(merchant, { description: 'Single', amount: '12.000', max_payments: 1 });
    const [first, second] = [await checkoutUrlOf(link), await checkoutUrlOf(link)];

    const declined = await payOnPage(first, { card_number: '4000000000000002' });
    assert.equal(declined.status, 200);
    assert.match(declined.html, /declined/);
    assert.equal(await heldSlots(link.id), 0);
    assert.equal((await fetch(link.url)).status, 200, 'the page takes buyers again');

    const paying = await payOnPage(second, { card_number: '4242424242424242' });
    assert.ok(paid(paying), paying.html.slice(0, 500));
    const [declinedSession, paidSession] = [await sessionAt(merchant, first), await sessionAt(merchant, second)];
    assert.equal(declinedSession.status, 'PENDING');
    assert.equal(paidSession.status, 'SUCCEEDED');
    assert.equal(await chargesAtSandbox(system, declinedSession.id), 0);
    assert.equal(await chargesAtSandbox(system, paidSession.id), 1);

    // The declined buyer tries another card: the link is used up.
    const retried = await payOnPage(first, { card_number: '4242424242424242' });
    assert.ok(refused(retried), `${retried.status} ${retried.html.slice(0, 300)}`);
    assert.equal(await chargesAtSandbox(system, declinedSession.id), 0);
  });

  it("when a buyer's payment is under way, then another buyer is refused with 409 and the page says not available right now; the slot stays held even once old, as its session is PROCESSING", async () => {
    const merchant = await newMerchant();
    const link = await newLink(merchant, { description: 'Rare print', amount: '40.000', max_payments: 1, locale: 'auto' });
    const [first, second] = [await checkoutUrlOf(link), await checkoutUrlOf(link)];
    // The acquirer keeps silent past the deadline: the attempt stays PROCESSING.
    const slow = payOnPage(first, { card_number: '4000000000000036' });
    const firstSession = await sessionAt(merchant, first);
    await pollUntil(async () => (await system.api(merchant.testKey).get<SessionDetail>(`/gateway/sessions/${firstSession.id}/`)).body.status === 'PROCESSING', 10_000, 'first attempt under way');

    const page = await fetch(link.url, { headers: { 'accept-language': 'fr' } });
    assert.equal(page.status, 409);
    assert.match(await page.text(), /Indisponible pour le moment/);
    const posted = await fetch(link.url, { method: 'POST', body: new URLSearchParams(buyer), redirect: 'manual', headers: { 'accept-language': 'en' } });
    assert.equal(posted.status, 409, 'no new session while every slot is held');
    const refusedPay = await payOnPage(second, { card_number: '4242424242424242' });
    assert.equal(refusedPay.status, 409);
    assert.match(refusedPay.html, /Not available right now/);
    await slow;

    // As if the first attempt's answer had been lost long ago: the session is asked, and it is paying (or paid).
    await system.db.query(`UPDATE checkout.payment_link_sessions SET held_at = now() - interval '1 hour' WHERE session_id = $1`, [firstSession.id]);
    const later = await fetch(link.url);
    assert.ok([409, 410].includes(later.status), `status ${later.status}`);
    const secondSession = await sessionAt(merchant, second);
    assert.equal(await chargesAtSandbox(system, secondSession.id), 0);
    assert.deepEqual(secondSession.attempts, []);
  });

  it("when a slot's attempt answer was lost and its session is not paying, then the link's page gives it back once the payment step's deadline passed, and the next buyer pays", async () => {
    const merchant = await newMerchant();
    const link = await newLink(merchant, { description: 'Poster', amount: '9.000', max_payments: 1 });
    const first = await checkoutUrlOf(link);
    await payOnPage(first, { card_number: '4000000000000002' });
    const firstSession = await sessionAt(merchant, first);
    const [checkoutLink] = await system.db.query<{ checkout_link_id: string }>('SELECT checkout_link_id FROM session.sessions WHERE id = $1', [firstSession.id]);
    // The slot as a lost answer would leave it: held by an attempt that is over (the session is PENDING).
    await system.db.query(`UPDATE checkout.payment_link_sessions SET attempt_id = 'pa_lostanswer0000000000000', checkout_link_id = $2, held_at = now() WHERE session_id = $1`, [
      firstSession.id,
      checkoutLink?.checkout_link_id,
    ]);
    // Before the deadline it is not looked at: the attempt might still start.
    assert.equal((await fetch(link.url)).status, 409);
    await system.db.query(`UPDATE checkout.payment_link_sessions SET held_at = now() - interval '1 minute' WHERE session_id = $1`, [firstSession.id]);
    assert.equal((await fetch(link.url)).status, 200);
    assert.equal(await heldSlots(link.id), 0);
    const second = await checkoutUrlOf(link);
    assert.ok(paid(await payOnPage(second, { card_number: '4242424242424242' })));
    assert.equal(await totalCharges(merchant), 1);
  });

  describe("a link's merchant_reference", () => {
    it('when a merchant creates a session whose merchant_reference has the form of a link\'s (pl_<id>-<n>), then 422 names merchant_reference and no session is made; other pl_ references are fine', async () => {
      const merchant = await newMerchant();
      const link = await newLink(merchant, { description: 'Mug', amount: '15.000' });
      const api = system.api(merchant.testKey);
      const session = { amount: '15.000', ...buyer };
      const taken = await api.post('/gateway/sessions/', { ...session, merchant_reference: `${link.id}-1`, return_url: 'javascript:x' });
      assert.equal(taken.status, 422, taken.text);
      const errors = (taken.body as { errors: { field: string; code: string; message: string }[] }).errors;
      assert.deepEqual(
        errors.map((e) => [e.field, e.code]),
        [
          ['merchant_reference', 'invalid'],
          ['return_url', 'invalid'],
        ],
      );
      assert.match(errors[0]?.message ?? '', /payment links/);
      assert.equal((await api.post('/gateway/sessions/', { ...session, merchant_reference: 'pl_xyz0000000000000000000000-7' })).status, 422, 'any link id shape');
      assert.deepEqual((await api.get<SessionList>('/gateway/sessions/list/')).body.data, []);
      for (const reference of ['pl_order-7', 'pl_', `${link.id}-x`, `order-${link.id}-1`]) {
        const made = await api.post('/gateway/sessions/', { ...session, merchant_reference: reference });
        assert.equal(made.status, 201, `${reference}: ${made.text}`);
      }
      // The link's buyer still gets a session of its own.
      const url = await checkoutUrlOf(link);
      const mine = await sessionAt(merchant, url);
      assert.equal(mine.merchant_reference, `${link.id}-1`);
    });

    it("when a merchant's own session (made before such references were kept) holds the link's next reference, then the link's buyer gets a new session of the link, never the merchant's, and the merchant cannot replay the link's reference", async () => {
      const merchant = await newMerchant();
      const link = await newLink(merchant, { description: 'Scarf', amount: '25.000' });
      const api = system.api(merchant.testKey);
      const own = await api.post<SessionDetail>('/gateway/sessions/', { amount: '25.000', ...buyer, merchant_reference: 'own-order-1' });
      assert.equal(own.status, 201);
      await system.db.query('UPDATE session.sessions SET merchant_reference = $2 WHERE id = $1', [own.body.id, `${link.id}-1`]);

      const url = await checkoutUrlOf(link);
      assert.notEqual(url, own.body.checkout_url);
      const bought = await sessionAt(merchant, url);
      assert.notEqual(bought.id, own.body.id);
      assert.equal(bought.merchant_reference, `${link.id}-2`);
      assert.equal(bought.payment_link, link.id);
      const ownNow = (await api.get<SessionDetail>(`/gateway/sessions/${own.body.id}/`)).body;
      assert.equal(ownNow.payment_link, undefined);
      assert.equal(ownNow.status, 'CREATED');

      // The merchant replaying the reference of the link's session is refused: such references are the links'.
      const replay = await api.post('/gateway/sessions/', { amount: '25.000', ...buyer, merchant_reference: `${link.id}-2` });
      assert.equal(replay.status, 422);
    });
  });
});
