/**
 * Charges without the buyer (D24) against the whole system and the sandbox
 * acquirer: a customer's off_session card charged at once, answered as the
 * session then stands and announced like any payment; D24's two test cards'
 * failures; every refusal of a card that may not be charged; one charge for
 * a merchant_reference however many requests race; and a charge the
 * acquirer does not answer, reconciled to one outcome.
 */
import assert from 'node:assert/strict';
import type { SessionDetail, SessionEventData } from '@gateway/contracts';
import { pollUntil, TestSystem, type EventCapture } from '@gateway/testkit';
import { CustomerSteps, fieldsOf, type Problem } from './customer-steps.js';



describe('Charges without the buyer (D24)', function () {
  this.timeout(90_000);
  let system: TestSystem;
  let events: EventCapture;
  let steps: CustomerSteps;

  before(async () => {
    // The acquirer's late answer (card 0036) outlasts the adapter's wait, and reconciliation looks again within seconds.
    system = await TestSystem.start({
      env: { SWEEP_INTERVAL_SECONDS: '1' },
      serviceEnv: { 'acquirer-adapter': { ACQUIRER_TIMEOUT_MS: '1000', RECONCILE_AFTER_SECONDS: '4' }, 'epg-sandbox': { SANDBOX_SLOW_DELAY_MS: '2000' } },
    });
    steps = new CustomerSteps(system);
    events = await system.captureEvents(['session.*']);
  });

  after(async () => {
    await events?.stop();
    await system?.shutdown();
  });

  const charge = (key: string, body: Record<string, unknown>) =>
    system.api(key).post<SessionDetail & Problem>('/gateway/sessions/', { amount: '30.000', merchant_reference: `mit-${Math.random().toString(36).slice(2)}`, off_session: true, ...body });

  it('when an off_session card is charged, then the create answers it paid, without a checkout_url, with the customer as buyer, and session.succeeded announces it', async () => {
    const merchant = await steps.newMerchant();
    const customer = await steps.newCustomer(merchant, { email: 'sami@example.tn', name: 'Sami Ben Amor' });
    const card = await steps.saveCard(merchant, customer, '4242424242424242');
    const charged = await charge(merchant.testKey, { customer: customer.id, payment_method: card.id, description: 'November top-up' });
    assert.equal(charged.status, 201, charged.text);
    const session = charged.body;
    assert.equal(session.status, 'SUCCEEDED');
    assert.equal(session.checkout_url, undefined);
    assert.deepEqual([session.buyer_first_name, session.buyer_last_name, session.buyer_email, session.customer], ['Sami', 'Ben Amor', 'sami@example.tn', customer.id]);
    assert.deepEqual(
      session.attempts.map((a) => [a.status, a.card_brand, a.card_last_four]),
      [['SUCCEEDED', 'visa', '4242']],
    );
    const [succeeded] = await events.waitFor<SessionEventData>('session.succeeded', (e) => e.data.session.id === session.id);
    assert.equal(succeeded?.data.session.payment?.card_last_four, '4242');
    // Refunded as any session.
    const refunded = await system.api(merchant.testKey).post<{ refunded_amount: string }>(`/gateway/sessions/${session.id}/refund/`, { refund_type: 'PARTIAL', amount: '10.000', reason: 'partial' });
    assert.equal(refunded.status, 200, refunded.text);
    assert.equal(refunded.body.refunded_amount, '10.000');
    // The buyer fields given win over the customer's; a manual session holds the amount (D22).
    const held = await charge(merchant.testKey, { customer: customer.id, payment_method: card.id, first_name: 'Leila', last_name: 'Trabelsi', email: 'leila@example.tn', capture_method: 'manual' });
    assert.equal(held.status, 201, held.text);
    assert.deepEqual([held.body.status, held.body.buyer_first_name, held.body.amount_authorized], ['AUTHORIZED', 'Leila', '30.000']);
  });

  it("when D24's test cards are charged without the buyer, then each fails at once: insufficient_funds, authentication_required", async () => {
    const merchant = await steps.newMerchant();
    const customer = await steps.newCustomer(merchant);
    for (const [number, code] of [
      ['4000000000003055', 'insufficient_funds'],
      ['4000002760003184', 'authentication_required'],
    ] as const) {
      const card = await steps.saveCard(merchant, customer, number);
      const charged = await charge(merchant.testKey, { customer: customer.id, payment_method: card.id });
      assert.equal(charged.status, 201, charged.text);
      assert.deepEqual([charged.body.status, charged.body.attempts[0]?.failure_code], ['FAILED', code], number);
      const [failed] = await events.waitFor<SessionEventData>('session.failed', (e) => e.data.session.id === charged.body.id);
      assert.deepEqual([failed?.data.session.last_failure_code, failed?.data.session.can_retry], [code, false]);
    }
  });

  it('when the card may not be charged without the buyer, then the create is refused naming the field, and nothing is charged', async () => {
    const merchant = await steps.newMerchant();
    const customer = await steps.newCustomer(merchant);
    const other = await steps.newCustomer(merchant);
    const onSession = await steps.saveCard(merchant, customer, '5555555555554444', 'on_session');
    const offSession = await steps.saveCard(merchant, customer, '4242424242424242');
    const othersCard = await steps.saveCard(merchant, other, '4000000000003055');
    const refusals: [Record<string, unknown>, string[]][] = [
      [{ customer: customer.id, payment_method: onSession.id }, ['payment_method:off_session_not_allowed']],
      [{ customer: customer.id, payment_method: othersCard.id }, ['payment_method:not_found']],
      [{ customer: customer.id, payment_method: 'pm_nope' }, ['payment_method:not_found']],
      [{ customer: customer.id }, ['payment_method:required']],
      [{ payment_method: offSession.id }, ['customer:required']],
      [{ customer: customer.id, payment_method: offSession.id, save_card: 'off_session' }, ['save_card:invalid']],
      [{ customer: customer.id, payment_method: offSession.id, off_session: false, first_name: 'A', last_name: 'B', email: 'a@example.tn' }, ['payment_method:invalid']],
    ];
    for (const [body, expected] of refusals) {
      const refused = await charge(merchant.testKey, body);
      assert.equal(refused.status, 422, `${JSON.stringify(body)}: ${refused.text}`);
      assert.deepEqual(fieldsOf(refused.body), expected, JSON.stringify(body));
    }
    // Removed, then its customer deleted: neither can be charged.
    assert.equal((await system.api(merchant.testKey).request('DELETE', `/gateway/customers/${customer.id}/payment_methods/${offSession.id}/`)).status, 200);
    assert.deepEqual(fieldsOf((await charge(merchant.testKey, { customer: customer.id, payment_method: offSession.id })).body), ['payment_method:not_found']);
    assert.equal((await system.api(merchant.testKey).request('DELETE', `/gateway/customers/${other.id}/`)).status, 200);
    assert.deepEqual(fieldsOf((await charge(merchant.testKey, { customer: other.id, payment_method: othersCard.id })).body), ['customer:not_found']);
    // Another merchant's key finds neither customer nor card.
    const stranger = await steps.newMerchant();
    assert.deepEqual(fieldsOf((await charge(stranger.testKey, { customer: customer.id, payment_method: onSession.id })).body), ['customer:not_found']);
    const listed = await system.api(merchant.testKey).get<{ data: { id: string; customer: string | null }[] }>('/gateway/sessions/list/?limit=100');
    assert.equal(listed.body.data.filter((s) => s.customer !== null).length, 3, 'only the three sessions that saved the cards');
  });

  it('when many requests race with one merchant_reference, then the card is charged once and each answers that one session', async () => {
    const merchant = await steps.newMerchant();
    const customer = await steps.newCustomer(merchant);
    const card = await steps.saveCard(merchant, customer, '4242424242424242');
    const reference = `race-${Date.now()}`;
    const answers = await Promise.all(Array.from({ length: 8 }, () => charge(merchant.testKey, { customer: customer.id, payment_method: card.id, merchant_reference: reference })));
    assert.deepEqual([...new Set(answers.map((a) => a.status))].sort(), answers.some((a) => a.status === 200) ? [200, 201] : [201]);
    assert.equal(answers.filter((a) => a.status === 201).length, 1);
    assert.equal(new Set(answers.map((a) => a.body.id)).size, 1);
    const session = await steps.session(merchant, answers[0]?.body.id ?? '');
    assert.equal(session.status, 'SUCCEEDED');
    assert.equal(session.attempts.length, 1);
    assert.equal((await system.sandboxOrder(`${merchant.merchantId.slice(-8)}-${session.order_number}-2`)).errorCode, '6', 'no second order at the acquirer');
  });

  it('when the acquirer does not answer the charge in time, then the session stays PROCESSING and is reconciled to one outcome, announced once', async () => {
    const merchant = await steps.newMerchant();
    const customer = await steps.newCustomer(merchant);
    // Card 0036 is answered late on the page too: reconciliation approves that payment, and the card is saved with it.
    await steps.pay(await steps.newSession(merchant, { customer: customer.id, save_card: 'off_session' }), { card_number: '4000000000000036' });
    await pollUntil(async () => (await steps.cardsOf(merchant, customer)).length === 1, 20_000, 'the slow card saved once its payment is reconciled');
    const [card] = await steps.cardsOf(merchant, customer);
    const charged = await charge(merchant.testKey, { customer: customer.id, payment_method: card?.id });
    assert.equal(charged.status, 201, charged.text);
    assert.equal(charged.body.status, 'PROCESSING');
    await pollUntil(async () => (await steps.session(merchant, charged.body.id)).status === 'SUCCEEDED', 20_000, 'the charge reconciled');
    await events.waitFor<SessionEventData>('session.succeeded', (e) => e.data.session.id === charged.body.id);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    assert.equal(events.of<SessionEventData>('session.succeeded', (e) => e.data.session.id === charged.body.id).length, 1);
  });
});
