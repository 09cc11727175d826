/**
 * Refunds against the acquirer's answers as deployments give them (D30,
 * ACQUIRER.md "Answers as deployed"), in a whole running system: a terminal
 * without reversal permission (D30's card 6983), whose same-day full refund
 * goes through refund.do instead; and a refund answered with a capitalised
 * ErrorCode 7 (D8's card 5126), recorded unconfirmed, never refunded.
 */
import assert from 'node:assert/strict';
import type { RefundResult } from '@gateway/contracts';
import { payOnPage, sessionRequest, TestSystem, type ApiClient } from '@gateway/testkit';

type Detail = { id: string; status: string; checkout_url?: string; amount_refunded: string; attempts: { id: string }[] };
type Refund = { refund_id: string; status: string; automated_refund: boolean; epg_error_message?: string };

describe('Refunds, as the acquirer answers them (D30)', function () {
  this.timeout(240_000);
  let system: TestSystem;
  let api: ApiClient;

  before(async () => {
    system = await TestSystem.start();
    const merchant = await system.newMerchant({ limits: { account: 10_000, create: 10_000, refund: 10_000 } });
    api = system.api(merchant.testKey);
  });
  after(async () => {
    await system?.shutdown();
  });

  async function paidWith(card: string): Promise<Detail> {
    const created = await api.post<Detail>('/gateway/sessions/', sessionRequest({ amount: '80.000' }));
    assert.equal(created.status, 201, created.text);
    await payOnPage(created.body.checkout_url ?? '', { card_number: card });
    const paid = await api.get<Detail>(`/gateway/sessions/${created.body.id}/`);
    assert.equal(paid.body.status, 'SUCCEEDED', paid.text);
    return paid.body;
  }

  /** The session's acquirer order, as the sandbox holds it. */
  async function atAcquirer(session: Detail) {
    const [order] = await system.db.query<{ order_number: string }>('SELECT order_number FROM acquirer.orders WHERE attempt_id = $1', [session.attempts[0]?.id ?? '']);
    return system.sandboxOrder(order?.order_number ?? '');
  }

  async function operations(session: Detail): Promise<[string, string, string][]> {
    const rows = await system.db.query<{ operation: string; status: string; message: string }>(
      'SELECT operation, status, message FROM acquirer.refund_operations WHERE attempt_id = $1 ORDER BY created_at',
      [session.attempts[0]?.id ?? ''],
    );
    return rows.map((row) => [row.operation, row.status, row.message]);
  }

  it('when a payment with card 6983 is refunded in full the same day, then the acquirer refuses the reversal and the refund goes through refund.do: refunded, automated', async () => {
    const session = await paidWith('4000000000006983');
    const res = await api.post<RefundResult>(`/gateway/sessions/${session.id}/refund/`, { reason: 'Order canceled', refund_type: 'FULL' });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual([res.body.refunded_amount, res.body.automated_refund, res.body.epg_error_message], ['80.000', true, undefined]);

    const order = await atAcquirer(session);
    assert.deepEqual([order.orderStatus, order.paymentAmountInfo?.refundedAmount], [4, 80000], 'refunded at the acquirer, not reversed');
    assert.deepEqual(await operations(session), [['refund', 'REFUNDED', '']]);
    const [stored] = await system.db.query<{ operation: string; status: string }>('SELECT operation, status FROM refund.refunds WHERE id = $1', [res.body.refund_id]);
    assert.deepEqual([stored?.operation, stored?.status], ['refund', 'SUCCEEDED']);
    const read = await api.get<Refund>(`/gateway/refunds/${res.body.refund_id}/`);
    assert.deepEqual([read.body.status, read.body.automated_refund], ['succeeded', true]);
    assert.equal((await api.get<Detail>(`/gateway/sessions/${session.id}/`)).body.amount_refunded, '80.000');
  });

  it('when a refund of card 5126 is answered with a capitalised ErrorCode 7, then it is recorded unconfirmed for operations, with the acquirer\'s words, and nothing is refunded at the acquirer', async () => {
    const session = await paidWith('4000000000005126');
    // A partial refund goes straight to refund.do, which answers {"ErrorCode":"7","ErrorMessage":"System error"}.
    const res = await api.post<RefundResult>(`/gateway/sessions/${session.id}/refund/`, { reason: 'Damaged', refund_type: 'PARTIAL', amount: '30.000' });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual([res.body.refunded_amount, res.body.automated_refund, res.body.epg_error_message], ['30.000', false, 'System error']);
    assert.deepEqual(await operations(session), [['refund', 'UNCONFIRMED', 'System error']]);
    const read = await api.get<Refund>(`/gateway/refunds/${res.body.refund_id}/`);
    assert.deepEqual([read.body.status, read.body.automated_refund, read.body.epg_error_message], ['pending', false, 'System error']);

    // And a full refund the same day: the reversal answers ErrorCode 7 too, the order is still deposited, refund.do answers the same.
    const rest = await api.post<RefundResult>(`/gateway/sessions/${session.id}/refund/`, { reason: 'Damaged', refund_type: 'FULL' });
    assert.equal(rest.status, 200, rest.text);
    assert.deepEqual([rest.body.refunded_amount, rest.body.automated_refund, rest.body.epg_error_message], ['50.000', false, 'System error']);

    const order = await atAcquirer(session);
    assert.deepEqual([order.orderStatus, order.paymentAmountInfo?.refundedAmount], [2, 0], 'nothing refunded at the acquirer');
    // The amounts count as refunded (D10): the operations queue owes them to the buyer.
    assert.equal((await api.get<Detail>(`/gateway/sessions/${session.id}/`)).body.amount_refunded, '80.000');
  });
});
