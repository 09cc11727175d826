/**
 * Saved cards (D24) against the whole system and the sandbox acquirer: a card
 * is saved with a successful payment, for the use the session asks (the
 * page's box for on_session, the mandate for off_session), once per customer
 * whatever the repeats; nothing is saved without it or with a decline; a
 * card removed, or its customer deleted, is announced and unbound at the
 * acquirer. No answer, event or log carries the acquirer's binding.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Customer, SessionDetail } from '@gateway/contracts';
import { pollUntil, TestSystem, type EventCapture } from '@gateway/testkit';
import { CustomerSteps } from './customer-steps.js';

interface AttachedEvent {
  merchant_id: string;
  livemode: boolean;
  payment_method: { id: string; customer: string; card_brand: string; card_last_four: string; exp_month: number; exp_year: number; usage: string };
}

describe('Saved cards (D24)', function () {
  this.timeout(60_000);
  let system: TestSystem;
  let events: EventCapture;
  let steps: CustomerSteps;

  before(async () => {
    system = await TestSystem.start();
    steps = new CustomerSteps(system);
    events = await system.captureEvents(['payment_method.*', 'payment.*']);
  });

  after(async () => {
    await events?.stop();
    await system?.shutdown();
  });

  it('when a session for a customer saves its card off_session, then the page says so, and the paid card is the customer\'s, announced, kept at the acquirer', async () => {
    const merchant = await steps.newMerchant();
    const customer = await steps.newCustomer(merchant);
    const session = await steps.newSession(merchant, { customer: customer.id, save_card: 'off_session' });
    const page = await (await fetch(session.checkout_url ?? '')).text();
    assert.match(page, /this merchant may charge it for your future payments/);
    assert.doesNotMatch(page, /name="save_card"/);

    await steps.pay(session, { card_number: '4242 4242 4242 4242', expiry: '07/31' });
    const cards = await steps.cardsOf(merchant, customer);
    assert.equal(cards.length, 1);
    const [card] = cards;
    assert.deepEqual({ ...card, id: '', created_at: '' }, { id: '', customer: customer.id, type: 'card', card_brand: 'visa', card_last_four: '4242', exp_month: 7, exp_year: 2031, usage: 'off_session', created_at: '' });
    const [attached] = await events.waitFor<AttachedEvent>('payment_method.attached', (e) => e.data.payment_method.id === card?.id);
    assert.deepEqual(attached?.data, { merchant_id: merchant.merchantId, livemode: false, payment_method: card });
    assert.equal((await system.api(merchant.testKey).get<Customer>(`/gateway/customers/${customer.id}/`)).body.payment_methods.length, 1);
    assert.equal((await steps.acquirerBindings(customer)).length, 1);

    // The binding went nowhere but the adapter: not in the events the payment made, not in the answers.
    const bindingId = String((await steps.acquirerBindings(customer).then((b) => b[0] as Record<string, unknown>))['bindingId']);
    assert.ok(bindingId.length > 8);
    for (const event of events.events) assert.ok(!JSON.stringify(event).includes(bindingId), `${event.type} carries the binding`);
    assert.ok(!JSON.stringify(await system.api(merchant.testKey).get(`/gateway/sessions/${session.id}/`)).includes(bindingId));
    const dump = await system.dumpDatabase();
    assert.ok(!dump.includes(bindingId) && !dump.includes('4242424242424242'), 'the database holds the binding or the card number in clear');
    for (const file of readdirSync(system.logDir)) {
      const text = readFileSync(join(system.logDir, file), 'utf8');
      assert.ok(!text.includes(bindingId) && !text.includes('4242424242424242'), `${file} logs the binding or the card number`);
    }
  });

  it('when the buyer leaves the on_session box unticked, then nothing is saved; ticked, the card is saved for on_session use', async () => {
    const merchant = await steps.newMerchant();
    const customer = await steps.newCustomer(merchant);
    const unticked = await steps.newSession(merchant, { customer: customer.id, save_card: 'on_session' });
    const page = await (await fetch(unticked.checkout_url ?? '')).text();
    assert.match(page, /<input type="checkbox" id="save_card" name="save_card" value="yes"> <label for="save_card">Save card for future payments<\/label>/);
    await steps.pay(unticked, { card_number: '4242424242424242' });
    assert.equal((await system.api(merchant.testKey).get<SessionDetail>(`/gateway/sessions/${unticked.id}/`)).body.status, 'SUCCEEDED');
    assert.deepEqual(await steps.cardsOf(merchant, customer), []);
    assert.deepEqual(await steps.acquirerBindings(customer), []);

    const ticked = await steps.newSession(merchant, { customer: customer.id, save_card: 'on_session' });
    await steps.pay(ticked, { card_number: '5555 5555 5555 4444', save_card: 'yes' });
    const cards = await steps.cardsOf(merchant, customer);
    assert.deepEqual(
      cards.map((c) => [c.card_brand, c.card_last_four, c.usage]),
      [['mastercard', '4444', 'on_session']],
    );
  });

  it('when the same card is saved again, then it stays one payment method, widened to off_session once asked', async () => {
    const merchant = await steps.newMerchant();
    const customer = await steps.newCustomer(merchant);
    await steps.pay(await steps.newSession(merchant, { customer: customer.id, save_card: 'on_session' }), { card_number: '4242424242424242', save_card: 'yes' });
    await steps.pay(await steps.newSession(merchant, { customer: customer.id, save_card: 'on_session' }), { card_number: '4242424242424242', save_card: 'yes' });
    const [first, ...others] = await steps.cardsOf(merchant, customer);
    assert.equal(others.length, 0);
    assert.equal(first?.usage, 'on_session');
    await steps.pay(await steps.newSession(merchant, { customer: customer.id, save_card: 'off_session' }), { card_number: '4242424242424242' });
    const after = await steps.cardsOf(merchant, customer);
    assert.deepEqual(
      after.map((c) => [c.id, c.usage]),
      [[first?.id, 'off_session']],
    );
    // Attached when saved, and again when its use widened: never for a save that changed nothing.
    await events.waitFor<AttachedEvent>('payment_method.attached', (e) => e.data.payment_method.customer === customer.id, 2);
    assert.equal(events.of<AttachedEvent>('payment_method.attached', (e) => e.data.payment_method.customer === customer.id).length, 2);
  });

  it('when the payment is declined, or the session has no customer, then no card is saved', async () => {
    const merchant = await steps.newMerchant();
    const customer = await steps.newCustomer(merchant);
    const declined = await steps.newSession(merchant, { customer: customer.id, save_card: 'off_session', max_attempts: 1 });
    await steps.pay(declined, { card_number: '4000000000000002' });
    assert.equal((await system.api(merchant.testKey).get<SessionDetail>(`/gateway/sessions/${declined.id}/`)).body.status, 'FAILED');
    assert.deepEqual(await steps.cardsOf(merchant, customer), []);
    assert.deepEqual(await steps.acquirerBindings(customer), []);
    // A session without a customer offers no box; a ticked box it never offered saves nothing.
    const anonymous = await steps.newSession(merchant, {});
    assert.doesNotMatch(await (await fetch(anonymous.checkout_url ?? '')).text(), /save_card/);
    await steps.pay(anonymous, { card_number: '4242424242424242', save_card: 'yes' });
    assert.equal(events.of<AttachedEvent>('payment_method.attached', (e) => e.data.merchant_id === merchant.merchantId).length, 0);
  });

  it('when a saved card is removed, or its customer deleted, then it is announced detached and unbound at the acquirer', async () => {
    const merchant = await steps.newMerchant();
    const api = system.api(merchant.testKey);
    const customer = await steps.newCustomer(merchant);
    await steps.pay(await steps.newSession(merchant, { customer: customer.id, save_card: 'off_session' }), { card_number: '4242424242424242' });
    await steps.pay(await steps.newSession(merchant, { customer: customer.id, save_card: 'off_session' }), { card_number: '5555555555554444' });
    const [visa, mastercard] = await steps.cardsOf(merchant, customer);
    assert.ok(visa && mastercard);
    assert.equal((await steps.acquirerBindings(customer)).length, 2);

    const removed = await api.request('DELETE', `/gateway/customers/${customer.id}/payment_methods/${visa.id}/`);
    assert.equal(removed.status, 200, removed.text);
    assert.deepEqual(removed.body, { id: visa.id, deleted: true });
    assert.equal((await api.request('DELETE', `/gateway/customers/${customer.id}/payment_methods/${visa.id}/`)).status, 404);
    assert.deepEqual((await steps.cardsOf(merchant, customer)).map((c) => c.id), [mastercard.id]);
    const [detached] = await events.waitFor<AttachedEvent>('payment_method.detached', (e) => e.data.payment_method.id === visa.id);
    assert.equal(detached?.data.payment_method.card_last_four, '4242');
    await pollUntil(async () => (await steps.acquirerBindings(customer)).length === 1, 10_000, 'the removed card unbound at the acquirer');

    assert.equal((await api.request('DELETE', `/gateway/customers/${customer.id}/`)).status, 200);
    await events.waitFor<AttachedEvent>('payment_method.detached', (e) => e.data.payment_method.id === mastercard.id);
    await pollUntil(async () => (await steps.acquirerBindings(customer)).length === 0, 10_000, 'the deleted customer\'s card unbound at the acquirer');
  });

  describe('paying with a saved card (one click)', () => {
    it('when a returning buyer opens the page, then their unexpired saved cards are offered, each by its brand and last four, beside "Use another card"; in Arabic too', async () => {
      const merchant = await steps.newMerchant();
      const customer = await steps.newCustomer(merchant);
      await steps.saveCard(merchant, customer, '4242424242424242', 'on_session');
      await steps.saveCard(merchant, customer, '5555555555554444');
      const session = await steps.newSession(merchant, { customer: customer.id });
      const page = await (await fetch(session.checkout_url ?? '')).text();
      assert.match(page, /<legend>Your saved cards<\/legend>/);
      assert.match(page, /<label for="card-pm_[0-9A-Za-z]+"><bdi dir="ltr">Visa •••• 4242<\/bdi><\/label>/);
      assert.match(page, /<label for="card-pm_[0-9A-Za-z]+"><bdi dir="ltr">Mastercard •••• 4444<\/bdi><\/label>/);
      assert.match(page, /<summary>Use another card<\/summary>/);
      const arabic = await steps.newSession(merchant, { customer: customer.id, locale: 'ar' });
      const arabicPage = await (await fetch(arabic.checkout_url ?? '')).text();
      assert.match(arabicPage, /<html lang="ar" dir="rtl"/);
      assert.match(arabicPage, /بطاقاتك المحفوظة/);
      assert.match(arabicPage, /Visa •••• 4242/);
      assert.match(arabicPage, /استخدام بطاقة أخرى/);
      // A session for no customer offers none.
      assert.doesNotMatch(await (await fetch((await steps.newSession(merchant, {})).checkout_url ?? '')).text(), /saved_cvc|Your saved cards/);
    });

    it('when the buyer pays with a saved card by its security code, then the session is paid with that card; a code of the wrong length is refused on the page and charges nothing', async () => {
      const merchant = await steps.newMerchant();
      const customer = await steps.newCustomer(merchant);
      const card = await steps.saveCard(merchant, customer, '5555555555554444', 'on_session');
      const session = await steps.newSession(merchant, { customer: customer.id });
      for (const code of ['12', '1234', 'abc']) {
        const refused = await steps.payWithSavedCard(session, card.id, code);
        assert.equal(refused.status, 422, `${code}: ${refused.html.slice(0, 200)}`);
        assert.match(refused.html, /Enter the 3-digit security code of the card you chose/);
      }
      assert.deepEqual((await steps.session(merchant, session.id)).attempts, []);
      const paid = await steps.payWithSavedCard(session, card.id, '123');
      assert.ok(paid.status < 400, paid.html.slice(0, 300));
      const after = await steps.session(merchant, session.id);
      assert.equal(after.status, 'SUCCEEDED');
      assert.deepEqual(
        after.attempts.map((a) => [a.status, a.card_brand, a.card_last_four]),
        [['SUCCEEDED', 'mastercard', '4444']],
      );
    });

    it("when the form names another customer's card or a removed one, then nothing is charged", async () => {
      const merchant = await steps.newMerchant();
      const customer = await steps.newCustomer(merchant);
      const other = await steps.newCustomer(merchant);
      const othersCard = await steps.saveCard(merchant, other, '4242424242424242');
      const own = await steps.saveCard(merchant, customer, '5555555555554444');
      const session = await steps.newSession(merchant, { customer: customer.id });
      await steps.payWithSavedCard(session, othersCard.id, '123');
      assert.equal((await steps.session(merchant, session.id)).attempts.length, 0);
      assert.equal((await system.api(merchant.testKey).request('DELETE', `/gateway/customers/${customer.id}/payment_methods/${own.id}/`)).status, 200);
      assert.doesNotMatch(await (await fetch(session.checkout_url ?? '')).text(), /Mastercard •••• 4444/);
      await steps.payWithSavedCard(session, own.id, '123');
      const after = await steps.session(merchant, session.id);
      assert.equal(after.attempts.length, 0);
      assert.notEqual(after.status, 'SUCCEEDED');
    });
  });
});
