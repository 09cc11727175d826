/**
 * Saved cards (D24) where money moves, as a hostile review tried them: which
 * card a payment method charges when two cards look alike, charges racing a
 * removal, replays of a charge without the buyer, the same card saved by
 * concurrent payments, a redelivered payment, expired cards, a stale
 * saved-card form, and a customer deleted before its session is paid.
 */
import assert from 'node:assert/strict';
import type { Customer, Envelope, PaymentMethod, SessionDetail } from '@gateway/contracts';
import { pollUntil, TestSystem, type EventCapture } from '@gateway/testkit';
import { luhnValid } from '@gateway/test-cards';
import { CustomerSteps, fieldsOf, type Problem } from './customer-steps.js';



/** A Luhn-valid 16-digit number starting `prefix` (11 digits) and ending `lastFour`: another card with the same last four. */
function sameLastFour(prefix: string, lastFour: string): string {
  for (let digit = 0; digit <= 9; digit += 1) {
    const candidate = `${prefix}${digit}${lastFour}`;
    if (luhnValid(candidate)) return candidate;
  }
  throw new Error('no Luhn-valid number');
}

describe('Saved cards where money moves (D24)', function () {
  this.timeout(120_000);
  let system: TestSystem;
  let steps: CustomerSteps;
  let events: EventCapture;

  before(async () => {
    system = await TestSystem.start();
    steps = new CustomerSteps(system);
    events = await system.captureEvents(['payment_method.*', 'session.*', 'payment.*']);
  });

  after(async () => {
    await events?.stop();
    await system?.shutdown();
  });

  const charge = (key: string, body: Record<string, unknown>) =>
    system.api(key).post<SessionDetail & Problem>('/gateway/sessions/', { amount: '30.000', merchant_reference: `mit-${Math.random().toString(36).slice(2)}`, off_session: true, ...body });

  /** The sandbox's order of the session's first attempt. */
  const acquirerOrder = (merchantId: string, session: SessionDetail) => system.sandboxCall('getOrderStatusExtended.do', { orderNumber: `${merchantId.slice(-8)}-${session.order_number}-1` });

  it('when another card with the same brand, last four and expiry is saved off_session, then it replaces the first (one payment method), and an off-session charge charges it, never the one saved for on_session use', async () => {
    const merchant = await steps.newMerchant();
    const customer = await steps.newCustomer(merchant);
    // Card A: the buyer allows it on the page only (D24's 3055: its off-session charges are declined).
    const onSessionOnly = await steps.saveCard(merchant, customer, '4000000000003055', 'on_session');
    assert.equal(onSessionOnly.usage, 'on_session');
    // Card B: another Visa, same last four and expiry, saved with the off_session mandate.
    const cardB = sameLastFour('42424242424', '3055');
    await steps.pay(await steps.newSession(merchant, { customer: customer.id, save_card: 'off_session' }), { card_number: cardB });
    const cards = await steps.cardsOf(merchant, customer);
    const offSession = cards.find((card) => card.usage === 'off_session');
    assert.ok(offSession, JSON.stringify(cards));
    const charged = await charge(merchant.testKey, { customer: customer.id, payment_method: offSession.id });
    assert.equal(charged.status, 201, charged.text);
    const order = await acquirerOrder(merchant.merchantId, charged.body);
    const masked = String((order['cardAuthInfo'] as Record<string, unknown> | undefined)?.['maskedPan'] ?? '');
    // The mandate was given for card B; card A was never allowed off-session.
    assert.equal(masked, `${cardB.slice(0, 6)}**3055`, `the off-session charge went to ${masked} (${charged.body.status}, ${charged.body.attempts[0]?.failure_code ?? ''})`);
  });

  it('when a customer whose two same-looking cards were saved is deleted, then the acquirer binds none of its cards any more', async () => {
    const merchant = await steps.newMerchant();
    const customer = await steps.newCustomer(merchant);
    await steps.saveCard(merchant, customer, '4242424242424242', 'off_session');
    await steps.pay(await steps.newSession(merchant, { customer: customer.id, save_card: 'off_session' }), { card_number: sameLastFour('40000000000', '4242') });
    assert.equal((await steps.cardsOf(merchant, customer)).length, 1, 'one payment method shown');
    // The card replaced is announced detached, and its binding goes.
    await pollUntil(async () => (await steps.acquirerBindings(customer)).length === 1, 10_000, 'the replaced card unbound at the acquirer');
    assert.equal((await system.api(merchant.testKey).request('DELETE', `/gateway/customers/${customer.id}/`)).status, 200);
    // D24: "its saved cards are removed at the acquirer and can never be charged again".
    await pollUntil(async () => (await steps.acquirerBindings(customer)).length === 0, 10_000, 'every binding of the deleted customer unbound at the acquirer').catch(async () => {
      assert.deepEqual(
        (await steps.acquirerBindings(customer)).map((b) => b['maskedPan']),
        [],
        'bindings left at the acquirer after the customer was deleted',
      );
    });
  });

  it('when the card is removed while off-session charges are under way, then a charge already under way ends paid or with processing_error (never a decline of the card), and one asked after the removal answered is refused', async () => {
    const merchant = await steps.newMerchant();
    const late: string[] = [];
    for (let round = 0; round < 10; round += 1) {
      const customer = await steps.newCustomer(merchant);
      const card = await steps.saveCard(merchant, customer, '4242424242424242');
      const charging = charge(merchant.testKey, { customer: customer.id, payment_method: card.id });
      await new Promise((resolve) => setTimeout(resolve, round % 5));
      const removed = await system.api(merchant.testKey).request('DELETE', `/gateway/customers/${customer.id}/payment_methods/${card.id}/`);
      const removedAt = Date.now();
      const charged = await charging;
      if (removed.status !== 200 || charged.status !== 201) continue;
      // The order is registered just before the card is sent: registered after the removal answered, it was sent after it too.
      const order = await acquirerOrder(merchant.merchantId, charged.body);
      const registeredAt = Number(order['date'] ?? 0);
      const outcome = `${charged.body.status} ${charged.body.attempts[0]?.failure_code ?? ''}`.trim();
      if (registeredAt > removedAt && outcome !== 'SUCCEEDED' && outcome !== 'FAILED processing_error') late.push(`round ${round}: ${outcome}`);
      const after = await charge(merchant.testKey, { customer: customer.id, payment_method: card.id });
      assert.deepEqual(fieldsOf(after.body), ['payment_method:not_found'], `round ${round}: a charge asked after the removal`);
    }
    assert.deepEqual(late, []);
  });

  it('when a charge without the buyer is replayed after its card was removed or its customer deleted, then the replay answers the charged session (D3), not a refusal', async () => {
    const merchant = await steps.newMerchant();
    const customer = await steps.newCustomer(merchant);
    const card = await steps.saveCard(merchant, customer, '4242424242424242');
    const body = { customer: customer.id, payment_method: card.id, merchant_reference: `replay-${Date.now()}` };
    const first = await charge(merchant.testKey, body);
    assert.equal(first.status, 201, first.text);
    assert.equal(first.body.status, 'SUCCEEDED');
    assert.equal((await system.api(merchant.testKey).request('DELETE', `/gateway/customers/${customer.id}/payment_methods/${card.id}/`)).status, 200);
    const replayed = await charge(merchant.testKey, body);
    const afterDelete = await (async () => {
      assert.equal((await system.api(merchant.testKey).request('DELETE', `/gateway/customers/${customer.id}/`)).status, 200);
      return charge(merchant.testKey, body);
    })();
    assert.deepEqual(
      [
        [replayed.status, replayed.body.id, fieldsOf(replayed.body)],
        [afterDelete.status, afterDelete.body.id, fieldsOf(afterDelete.body)],
      ],
      [
        [200, first.body.id, []],
        [200, first.body.id, []],
      ],
    );
  });

  it('when a charge without the buyer is replayed with another amount, then 409; with another card, the first session answers and nothing more is charged', async () => {
    const merchant = await steps.newMerchant();
    const customer = await steps.newCustomer(merchant);
    const visa = await steps.saveCard(merchant, customer, '4242424242424242');
    const mastercard = await steps.saveCard(merchant, customer, '5555555555554444');
    const reference = `replay-${Date.now()}`;
    const first = await charge(merchant.testKey, { customer: customer.id, payment_method: visa.id, merchant_reference: reference });
    assert.equal(first.status, 201, first.text);
    const otherAmount = await charge(merchant.testKey, { customer: customer.id, payment_method: visa.id, merchant_reference: reference, amount: '31.000' });
    assert.equal(otherAmount.status, 409, otherAmount.text);
    const otherCard = await charge(merchant.testKey, { customer: customer.id, payment_method: mastercard.id, merchant_reference: reference });
    assert.equal(otherCard.status, 200, otherCard.text);
    assert.equal(otherCard.body.id, first.body.id);
    const session = await steps.session(merchant, first.body.id);
    assert.deepEqual(
      session.attempts.map((a) => a.card_last_four),
      ['4242'],
    );
    assert.equal((await system.sandboxOrder(`${merchant.merchantId.slice(-8)}-${session.order_number}-2`)).errorCode, '6');
  });

  it('when two charges with different merchant_references race on one card, then both are charged, each once', async () => {
    const merchant = await steps.newMerchant();
    const customer = await steps.newCustomer(merchant);
    const card = await steps.saveCard(merchant, customer, '4242424242424242');
    const [a, b] = await Promise.all([charge(merchant.testKey, { customer: customer.id, payment_method: card.id }), charge(merchant.testKey, { customer: customer.id, payment_method: card.id })]);
    assert.deepEqual([a?.status, b?.status, a?.body.status, b?.body.status], [201, 201, 'SUCCEEDED', 'SUCCEEDED']);
    assert.notEqual(a?.body.id, b?.body.id);
    for (const s of [a?.body, b?.body]) assert.equal((await steps.session(merchant, s?.id ?? '')).attempts.length, 1);
  });

  it('when one customer pays twice at once with the same card to save, then one payment method, one attached event', async () => {
    const merchant = await steps.newMerchant();
    const customer = await steps.newCustomer(merchant);
    const sessions = await Promise.all([0, 1, 2].map(() => steps.newSession(merchant, { customer: customer.id, save_card: 'off_session' })));
    await Promise.all(sessions.map((s) => steps.pay(s, { card_number: '4242424242424242' })));
    const cards = await steps.cardsOf(merchant, customer);
    assert.equal(cards.length, 1);
    assert.equal((await steps.acquirerBindings(customer)).length, 1);
    await events.waitFor('payment_method.attached', (e) => (e.data as { payment_method: PaymentMethod }).payment_method.customer === customer.id);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    assert.equal(events.of('payment_method.attached', (e) => (e.data as { payment_method: PaymentMethod }).payment_method.customer === customer.id).length, 1);
  });

  it('when a saved card has expired, then it is neither offered, charged off-session, nor paid with by a forged form', async () => {
    const merchant = await steps.newMerchant();
    const customer = await steps.newCustomer(merchant);
    const card = await steps.saveCard(merchant, customer, '4242424242424242');
    // Time passes: the card's expiry month is behind us (last month).
    const now = new Date();
    const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
    await system.db.query('UPDATE session.payment_methods SET exp_month = $2, exp_year = $3 WHERE id = $1', [card.id, lastMonth.getUTCMonth() + 1, lastMonth.getUTCFullYear()]);
    const refused = await charge(merchant.testKey, { customer: customer.id, payment_method: card.id });
    assert.equal(refused.status, 422, refused.text);
    assert.deepEqual(fieldsOf(refused.body), ['payment_method:card_expired']);
    const session = await steps.newSession(merchant, { customer: customer.id });
    assert.doesNotMatch(await (await fetch(session.checkout_url ?? '')).text(), /Visa •••• 4242/);
    await steps.payWithSavedCard(session, card.id, '123');
    assert.equal((await steps.session(merchant, session.id)).attempts.length, 0);
    // A card whose expiry month is this one still pays (valid through its month's end).
    await system.db.query('UPDATE session.payment_methods SET exp_month = $2, exp_year = $3 WHERE id = $1', [card.id, now.getUTCMonth() + 1, now.getUTCFullYear()]);
    const charged = await charge(merchant.testKey, { customer: customer.id, payment_method: card.id });
    assert.equal(charged.status, 201, charged.text);
  });

  it('when the buyer submits a saved card removed while the page was open, then the page says the card cannot be used, not that the link expired, and the session stays payable', async () => {
    const merchant = await steps.newMerchant();
    const customer = await steps.newCustomer(merchant);
    const card = await steps.saveCard(merchant, customer, '4242424242424242', 'on_session');
    const session = await steps.newSession(merchant, { customer: customer.id });
    assert.equal((await system.api(merchant.testKey).request('DELETE', `/gateway/customers/${customer.id}/payment_methods/${card.id}/`)).status, 200);
    const answer = await steps.payWithSavedCard(session, card.id, '123');
    const after = await steps.session(merchant, session.id);
    assert.equal(after.status, 'CREATED');
    assert.equal(after.attempts.length, 0);
    assert.notEqual(answer.status, 410, `answered ${answer.status}: ${answer.html.match(/<h1[^>]*>[^<]*/)?.[0] ?? ''}`);
    assert.equal(answer.status, 200);
    assert.doesNotMatch(answer.html.match(/<h1[^>]*>[^<]*/)?.[0] ?? '', /expired/i);
    assert.doesNotMatch(answer.html, /Visa •••• 4242/, 'the removed card is no longer offered');
  });

  it('when the payment that saved a since-removed card is delivered again, then it widens no other card to off_session', async () => {
    const merchant = await steps.newMerchant();
    const customer = await steps.newCustomer(merchant);
    const first = await steps.newSession(merchant, { customer: customer.id, save_card: 'off_session' });
    await steps.pay(first, { card_number: '4242424242424242' });
    const [approved] = await events.waitFor<{ session_id: string }>('payment.approved', (e) => e.data.session_id === first.id);
    assert.ok(approved);
    const [removedCard] = await steps.cardsOf(merchant, customer);
    assert.equal((await system.api(merchant.testKey).request('DELETE', `/gateway/customers/${customer.id}/payment_methods/${removedCard?.id}/`)).status, 200);
    await pollUntil(async () => (await steps.acquirerBindings(customer)).length === 0, 10_000, 'the removed card unbound');
    // The buyer saves the same card again, for payments on the page only.
    const onSession = await steps.saveCard(merchant, customer, '4242424242424242', 'on_session');
    assert.equal(onSession.usage, 'on_session');
    // At-least-once delivery: the adapter's payment.approved of the first payment arrives again.
    await system.publishEvents([approved as Envelope]);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    assert.deepEqual(
      (await steps.cardsOf(merchant, customer)).map((c) => [c.id, c.usage]),
      [[onSession.id, 'on_session']],
    );
    const refused = await charge(merchant.testKey, { customer: customer.id, payment_method: onSession.id });
    assert.deepEqual(fieldsOf(refused.body), ['payment_method:off_session_not_allowed'], `${refused.status} ${refused.body.status ?? ''}`);
  });

  it('when the customer is deleted before the buyer pays a session that saves cards, then no card is saved at the acquirer for it', async () => {
    const merchant = await steps.newMerchant();
    const customer = await steps.newCustomer(merchant);
    const session = await steps.newSession(merchant, { customer: customer.id, save_card: 'off_session' });
    assert.equal((await system.api(merchant.testKey).request('DELETE', `/gateway/customers/${customer.id}/`)).status, 200);
    const page = await (await fetch(session.checkout_url ?? '')).text();
    await steps.pay(session, { card_number: '4242424242424242' });
    assert.equal((await steps.session(merchant, session.id)).status, 'SUCCEEDED');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    // Nothing can ever remove such a binding: the customer's cards were removed at its deletion, and this one is shown nowhere.
    assert.deepEqual(
      (await steps.acquirerBindings(customer)).map((b) => b['maskedPan']),
      [],
      'a binding made at the acquirer for a deleted customer',
    );
    assert.doesNotMatch(page, /may charge it for your future payments/, 'the page asks a mandate for a deleted customer');
  });

  it('when a customer with neither name nor email is charged without the buyer, then the charge goes through and nothing fails on the way', async () => {
    const merchant = await steps.newMerchant();
    const customer = await steps.newCustomer(merchant, {});
    const card = await steps.saveCard(merchant, customer, '4242424242424242');
    const charged = await charge(merchant.testKey, { customer: customer.id, payment_method: card.id });
    assert.equal(charged.status, 201, charged.text);
    assert.equal(charged.body.status, 'SUCCEEDED');
    await events.waitFor('session.succeeded', (e) => (e.data as { session: { id: string } }).session.id === charged.body.id);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const { readFileSync } = await import('node:fs');
    const logs = ['notifier', 'ledger', 'webhook-dispatcher', 'session'].map((name) => readFileSync(`${system.logDir}/${name}.log`, 'utf8')).join('\n');
    const errors = logs.split('\n').filter((line) => line.includes(charged.body.id) && /"level":(50|60)|"level":"(error|fatal)"/.test(line));
    assert.deepEqual(errors, []);
  });

  it('when a customer is deleted and the same external_id is created again, then the new customer has none of the old cards', async () => {
    const merchant = await steps.newMerchant();
    const old = await steps.newCustomer(merchant, { external_id: 'client-42' });
    await steps.saveCard(merchant, old, '4242424242424242');
    assert.equal((await system.api(merchant.testKey).request('DELETE', `/gateway/customers/${old.id}/`)).status, 200);
    const created = await system.api(merchant.testKey).post<Customer>('/gateway/customers/', { external_id: 'client-42' });
    assert.equal(created.status, 201, created.text);
    assert.notEqual(created.body.id, old.id);
    assert.deepEqual(created.body.payment_methods, []);
  });
});
