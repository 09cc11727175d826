/**
 * The adapter's payment command on its own: a card it cannot read, and the
 * same attempt asked twice (the answer was lost, say). Neither may reach the
 * acquirer more than once.
 */
import assert from 'node:assert/strict';
import { newId, type CommandReply, type CommandRequest } from '@gateway/contracts';
import { TestSystem } from '@gateway/testkit';
import { newAttempt, sealCard } from './support.js';

describe('Acquirer adapter, payment.authorize', function () {
  this.timeout(60_000);
  let system: TestSystem;

  before(async () => {
    system = await TestSystem.start({ services: ['acquirer-adapter', 'epg-sandbox'] });
  });

  after(async () => {
    await system?.shutdown();
  });



  async function authorize(request: CommandRequest<'payment.authorize'>): Promise<CommandReply<'payment.authorize'>> {
    return system.send<CommandReply<'payment.authorize'>>('payment.authorize', request);
  }

  it('when the sealed card cannot be opened, then the attempt is declined processing_error and nothing reaches the acquirer', async () => {
    const paid = newAttempt();
    const sealedForAnother = sealCard(system, newId('pa'), '4242424242424242');
    for (const [index, card] of ['not-a-jwe', sealedForAnother].entries()) {
      const one = { ...paid, attempt_id: newId('pa'), attempt_number: index + 1 };
      const step = await authorize({ attempt: one, card, term_url: 'http://127.0.0.1/3ds' });
      assert.equal(step.outcome, 'declined');
      assert.equal(step.failure_code, 'processing_error');
      assert.equal(step.declined?.attempt_id, one.attempt_id);
      const [order] = await system.db.query<{ status: string; acquirer_order_id: string | null; card_last_four: string }>(
        'SELECT status, acquirer_order_id, card_last_four FROM acquirer.orders WHERE attempt_id = $1',
        [one.attempt_id],
      );
      assert.deepEqual(order, { status: 'DECLINED', acquirer_order_id: null, card_last_four: '' });
    }
  });

  it('when the same attempt is authorized twice, then the acquirer charges it once and the second answer reports the first outcome', async () => {
    const paid = newAttempt();
    const request = { attempt: paid, card: sealCard(system, paid.attempt_id, '4242424242424242'), term_url: 'http://127.0.0.1/3ds' };
    const [first, second] = [await authorize(request), await authorize(request)];
    assert.equal(first.outcome, 'approved');
    assert.equal(first.approved?.fee_amount !== undefined, true);
    // The repeat carries the outcome recorded first (its payment.approved's data), so the caller can apply it.
    assert.equal(second.outcome, 'approved');
    assert.deepEqual({ ...second.approved, paid_at: '' }, { ...first.approved, paid_at: '' });
    const orders = await system.db.query<{ order_number: string; status: string }>('SELECT order_number, status FROM acquirer.orders WHERE attempt_id = $1', [paid.attempt_id]);
    assert.equal(orders.length, 1);
    assert.equal(orders[0]?.status, 'APPROVED');
    // The acquirer knows this order number once, and no other for the attempt.
    const status = await fetch(`${system.sandboxUrl}/payment/rest/getOrderStatusExtended.do`, {
      method: 'POST',
      body: new URLSearchParams({ userName: system.sandboxTerminal.user, password: system.sandboxTerminal.password, orderNumber: orders[0]?.order_number ?? '' }),
    });
    assert.equal(((await status.json()) as { orderStatus: number }).orderStatus, 2);
  });
});
