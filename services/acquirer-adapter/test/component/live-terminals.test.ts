/**
 * Live mode: the merchant's own terminal (the sandbox standing in for the
 * live acquirer), the problems a live create answers when that terminal
 * cannot take payments, refused credentials, test cards, and pricing.
 */
import assert from 'node:assert/strict';
import type { CommandReply, SessionDetail } from '@gateway/contracts';
import { LIVE_TERMINAL, payOnPage, sessionRequest, TestSystem, type Merchant } from '@gateway/testkit';
import { newAttempt, sealCard } from './support.js';

describe('Acquirer adapter, live terminals and fees', function () {
  this.timeout(60_000);
  let system: TestSystem;

  before(async () => {
    system = await TestSystem.start();
  });

  after(async () => {
    await system?.shutdown();
  });

  async function liveMerchant(): Promise<Merchant & { liveKey: string }> {
    const merchant = await system.newMerchant();
    return { ...merchant, liveKey: await system.approveLive(merchant.merchantId) };
  }

  async function sessionCount(merchantId: string): Promise<number> {
    const rows = await system.db.query<{ n: number }>('SELECT count(*)::int AS n FROM session.sessions WHERE merchant_id = $1 AND livemode', [merchantId]);
    return rows[0]?.n ?? -1;
  }

  async function attemptsOf(key: string, id: string): Promise<SessionDetail> {
    return (await system.api(key).get<SessionDetail>(`/gateway/sessions/${id}/`)).body;
  }

  it('when a merchant has no live terminal, then a live create answers 422 no-terminal-configured and stores nothing', async () => {
    const merchant = await liveMerchant();
    const created = await system.api(merchant.liveKey).post('/gateway/sessions/', sessionRequest());
    assert.equal(created.status, 422);
    assert.match(String(created.body['type']), /\/errors\/no-terminal-configured$/);
    assert.equal(await sessionCount(merchant.merchantId), 0);
  });

  it('when the live terminal is inactive, then a live create answers 422 terminal-inactive', async () => {
    const merchant = await liveMerchant();
    await system.admin(['terminal', 'set', merchant.merchantId, '--mode', 'live', '--user', LIVE_TERMINAL.user, '--password', LIVE_TERMINAL.password, '--inactive']);
    const created = await system.api(merchant.liveKey).post('/gateway/sessions/', sessionRequest());
    assert.equal(created.status, 422);
    assert.match(String(created.body['type']), /\/errors\/terminal-inactive$/);
    assert.equal(await sessionCount(merchant.merchantId), 0);
  });

  it('when the acquirer refuses the live credentials, then the attempt fails with nothing charged and later creates answer terminal-rejected until the terminal is set again', async () => {
    const merchant = await liveMerchant();
    await system.admin(['terminal', 'set', merchant.merchantId, '--mode', 'live', '--user', LIVE_TERMINAL.user, '--password', 'wrong-password']);
    const created = await system.api(merchant.liveKey).post<SessionDetail>('/gateway/sessions/', sessionRequest());
    assert.equal(created.status, 201);

    const answer = await payOnPage(created.body.checkout_url ?? '', { card_number: '4111111111111111' });
    assert.equal(answer.status, 200);
    assert.match(answer.html, /could not be processed; nothing was charged/);
    const failed = await attemptsOf(merchant.liveKey, created.body.id);
    assert.equal(failed.status, 'PENDING');
    assert.equal(failed.attempts[0]?.failure_code, 'processing_error');
    const orders = await system.db.query<{ acquirer_order_id: string | null }>('SELECT acquirer_order_id FROM acquirer.orders WHERE session_id = $1', [created.body.id]);
    assert.deepEqual(orders, [{ acquirer_order_id: null }], 'no order was registered at the acquirer');

    const refused = await system.api(merchant.liveKey).post('/gateway/sessions/', sessionRequest());
    assert.equal(refused.status, 422);
    assert.match(String(refused.body['type']), /\/errors\/terminal-rejected$/);

    await system.admin(['terminal', 'set', merchant.merchantId, '--mode', 'live', '--user', LIVE_TERMINAL.user, '--password', LIVE_TERMINAL.password]);
    assert.equal((await system.api(merchant.liveKey).post('/gateway/sessions/', sessionRequest())).status, 201);
  });

  it('when the acquirer refuses a parameter with errorCode 5 on good credentials, then only that attempt fails: the terminal is not taken for rejected', async () => {
    const merchant = await system.newMerchant();
    const liveKey = await system.approveLive(merchant.merchantId, { terminal: true });
    const attempt = { ...newAttempt(), merchant_id: merchant.merchantId, livemode: true };
    // The sandbox, like the acquirer, answers errorCode 5 to a returnUrl that is not a web address.
    const step = await system.send<CommandReply<'payment.authorize'>>('payment.authorize', {
      attempt,
      card: sealCard(system, attempt.attempt_id, '4111111111111111'),
      term_url: 'not-a-web-address',
    });
    assert.deepEqual([step.outcome, step.failure_code], ['declined', 'processing_error']);
    assert.equal((await system.api(liveKey).post('/gateway/sessions/', sessionRequest())).status, 201);
  });

  it('when a live buyer uses a test card, then the attempt fails test_card_live_mode without reaching the acquirer, and a real card pays', async () => {
    const merchant = await system.newMerchant();
    const liveKey = await system.approveLive(merchant.merchantId, { terminal: true });
    const created = await system.api(liveKey).post<SessionDetail>('/gateway/sessions/', sessionRequest());
    assert.equal(created.status, 201);

    const refused = await payOnPage(created.body.checkout_url ?? '', { card_number: '4242424242424242' });
    assert.match(refused.html, /Test cards cannot be used for live payments/);
    const paid = await payOnPage(created.body.checkout_url ?? '', { card_number: '4111111111111111' });
    assert.match(paid.html, /Payment successful/);

    const detail = await attemptsOf(liveKey, created.body.id);
    assert.equal(detail.status, 'SUCCEEDED');
    assert.equal(detail.livemode, true);
    assert.deepEqual(
      detail.attempts.map((a) => [a.status, a.failure_code, a.card_last_four]),
      [
        ['FAILED', 'test_card_live_mode', '4242'],
        ['SUCCEEDED', '', '1111'],
      ],
    );
    const orders = await system.db.query<{ order_number: string; acquirer_order_id: string | null }>(
      'SELECT order_number, acquirer_order_id FROM acquirer.orders WHERE session_id = $1 ORDER BY order_number',
      [created.body.id],
    );
    // Live order numbers are the session's order number and the attempt number.
    assert.deepEqual(
      orders.map((o) => [o.order_number, o.acquirer_order_id === null]),
      [
        [`${created.body.order_number}-1`, true],
        [`${created.body.order_number}-2`, false],
      ],
    );
  });

  it('when the operator sets fees, then the fee is amount × percent + fixed, half-up to millimes, and fee + net = amount', async () => {
    const merchant = await system.newMerchant();
    const set = await system.admin(['fees', 'set', merchant.merchantId, '--percent', '2.5', '--fixed', '0.3']);
    assert.deepEqual(set, { merchant_id: merchant.merchantId, percent: '2.5', fixed: '0.300' });
    const created = await system.api(merchant.testKey).post<SessionDetail>('/gateway/sessions/', sessionRequest({ amount: '125.500' }));
    await payOnPage(created.body.checkout_url ?? '', { card_number: '4242424242424242' });
    const [attempt] = (await attemptsOf(merchant.testKey, created.body.id)).attempts;
    // 125.500 × 2.5 % = 3.1375, + 0.300 = 3.4375 → 3.438
    assert.equal(attempt?.fee_amount, '3.438');
    assert.equal(attempt?.net_amount, '122.062');
  });

  it('when fees or a terminal are set wrongly, then the operator gets a clear refusal and nothing changes', async () => {
    const merchant = await system.newMerchant();
    await assert.rejects(system.admin(['fees', 'set', merchant.merchantId, '--percent', '101', '--fixed', '0']), (err: Error & { errors?: { field: string }[] }) => {
      assert.equal(err.errors?.[0]?.field, 'percent');
      return true;
    });
    await assert.rejects(system.admin(['terminal', 'set', merchant.merchantId, '--mode', 'test', '--user', 'u', '--password', 'p']), /--mode must be live/);
    const pricing = await system.db.query('SELECT 1 FROM acquirer.pricing WHERE merchant_id = $1', [merchant.merchantId]);
    assert.equal(pricing.length, 0);
  });
});
