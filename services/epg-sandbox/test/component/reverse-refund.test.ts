/** reverse.do and refund.do, and D8's card 5126 whose refunds cannot be confirmed. */
import assert from 'node:assert/strict';
import { codeOf, startHarness, type Body, type Harness } from './sandbox-harness.js';

describe('epg-sandbox: reverse.do and refund.do', () => {
  let sandbox: Harness;

  before(async () => {
    sandbox = await startHarness();
  });
  after(async () => {
    await sandbox?.stop();
  });

  async function paidOrder(pan = '4242424242424242', amount = '125500'): Promise<{ orderId: string; before: Body }> {
    const { orderId } = await sandbox.register({ amount });
    const paid = await sandbox.pay(orderId, pan);
    assert.equal(codeOf(paid.body), '0');
    return { orderId, before: await sandbox.status(orderId) };
  }

  it('When a deposited order is reversed, then "0" and it reads status 3 REVERSED with nothing deposited; a second reverse answers "7"', async () => {
    const { orderId } = await paidOrder();
    const res = await sandbox.call('reverse.do', { orderId });
    assert.deepEqual(res.body, { ErrorCode: '0', ErrorMessage: 'Success' });
    const status = await sandbox.status(orderId);
    assert.equal(status.orderStatus, 3);
    assert.equal(status.paymentAmountInfo?.paymentState, 'REVERSED');
    assert.equal(status.paymentAmountInfo?.depositedAmount, 0);
    assert.equal(status.paymentAmountInfo?.refundedAmount, 0);
    const again = await sandbox.call('reverse.do', { orderId });
    assert.deepEqual(again.body, { ErrorCode: '7', ErrorMessage: 'Wrong order state' });
    assert.equal(codeOf((await sandbox.call('refund.do', { orderId, amount: '1' })).body), '7');
  });

  it('When an order that is not deposited is reversed or refunded, then "7"; an unknown one, then "6"; no orderId, then "4"', async () => {
    const registered = await sandbox.register();
    assert.equal(codeOf((await sandbox.call('reverse.do', { orderId: registered.orderId })).body), '7');
    assert.equal(codeOf((await sandbox.call('refund.do', { orderId: registered.orderId, amount: '1' })).body), '7');
    const declined = await sandbox.register();
    await sandbox.pay(declined.orderId, '4000000000000002');
    assert.equal(codeOf((await sandbox.call('reverse.do', { orderId: declined.orderId })).body), '7');
    assert.equal(codeOf((await sandbox.call('refund.do', { orderId: declined.orderId, amount: '1' })).body), '7');
    assert.equal(codeOf((await sandbox.call('reverse.do', { orderId: '00000000-0000-4000-8000-000000000000' })).body), '6');
    assert.equal(codeOf((await sandbox.call('reverse.do', {})).body), '4');
  });

  it('When two partial refunds are made and then one above what is left, then the first two succeed and the third answers "5" Invalid amount', async () => {
    const { orderId } = await paidOrder('4242424242424242', '125500');
    assert.deepEqual((await sandbox.call('refund.do', { orderId, amount: '25500' })).body, { ErrorCode: '0', ErrorMessage: 'Success' });
    let status = await sandbox.status(orderId);
    assert.equal(status.orderStatus, 4);
    assert.deepEqual(status.paymentAmountInfo, { approvedAmount: 125500, depositedAmount: 125500, refundedAmount: 25500, paymentState: 'REFUNDED' });

    assert.equal(codeOf((await sandbox.call('refund.do', { orderId, amount: '50000' })).body), '0');
    const tooMuch = await sandbox.call('refund.do', { orderId, amount: '50001' });
    assert.deepEqual(tooMuch.body, { ErrorCode: '5', ErrorMessage: 'Invalid amount' });
    status = await sandbox.status(orderId);
    assert.equal(status.paymentAmountInfo?.refundedAmount, 75500);

    assert.equal(codeOf((await sandbox.call('refund.do', { orderId, amount: '50000' })).body), '0');
    assert.equal(codeOf((await sandbox.call('refund.do', { orderId, amount: '1' })).body), '5');
    assert.equal(codeOf((await sandbox.call('reverse.do', { orderId })).body), '7');
    status = await sandbox.status(orderId);
    assert.equal(status.orderStatus, 4);
    assert.equal(status.paymentAmountInfo?.refundedAmount, 125500);
  });

  it('When the refund amount is malformed, then "5"; missing, then "4"', async () => {
    const { orderId } = await paidOrder();
    for (const amount of ['0', '-1', '1.5', 'abc', '1000000000']) {
      assert.equal(codeOf((await sandbox.call('refund.do', { orderId, amount })).body), '5', amount);
    }
    assert.equal(codeOf((await sandbox.call('refund.do', { orderId })).body), '4');
    assert.equal((await sandbox.status(orderId)).paymentAmountInfo?.refundedAmount, 0);
  });

  it('When card 5126 is refunded or reversed, then "7" System error and nothing changes', async () => {
    const { orderId, before } = await paidOrder('4000000000005126');
    assert.equal(before.orderStatus, 2);
    const refund = await sandbox.call('refund.do', { orderId, amount: '1000' });
    assert.deepEqual(refund.body, { ErrorCode: '7', ErrorMessage: 'System error' });
    const reverse = await sandbox.call('reverse.do', { orderId });
    assert.deepEqual(reverse.body, { ErrorCode: '7', ErrorMessage: 'System error' });
    assert.deepEqual(await sandbox.status(orderId), before);
  });

  it('When card 6983 is reversed, then "5" (no reversal permission) and nothing changes; refund.do gives the whole payment back', async () => {
    const { orderId, before } = await paidOrder('4000000000006983');
    const reverse = await sandbox.call('reverse.do', { orderId });
    assert.deepEqual(reverse.body, { ErrorCode: '5', ErrorMessage: 'Access denied: no reversal permission' });
    assert.deepEqual(await sandbox.status(orderId), before);
    assert.deepEqual((await sandbox.call('refund.do', { orderId, amount: '125500' })).body, { ErrorCode: '0', ErrorMessage: 'Success' });
    const status = await sandbox.status(orderId);
    assert.equal(status.orderStatus, 4);
    assert.equal(status.paymentAmountInfo?.refundedAmount, 125500);
  });

  it('When an order-management call is refused before the call itself (credentials, an unreadable body), then the answer still writes ErrorCode', async () => {
    const wrong = await sandbox.call('refund.do', { orderId: 'x', amount: '1' }, { userName: 'nobody', password: 'nothing' });
    assert.deepEqual(wrong.body, { ErrorCode: '5', ErrorMessage: 'Access denied' });
    const json = await fetch(`${sandbox.baseUrl}/payment/rest/deposit.do`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    assert.equal(((await json.json()) as Record<string, unknown>)['ErrorCode'], '4');
  });
});
