/** register.do validation and getOrderStatusExtended lookups, terminal isolation and eviction. */
import assert from 'node:assert/strict';
import { codeOf, OTHER_TERMINAL, orderNumber, RETURN_URL, startHarness, type Harness } from './sandbox-harness.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('epg-sandbox: register.do and getOrderStatusExtended.do', () => {
  let sandbox: Harness;

  before(async () => {
    sandbox = await startHarness({ SANDBOX_PUBLIC_URL: 'https://sandbox.example.tn/' });
  });
  after(async () => {
    await sandbox?.stop();
  });

  it('When a valid order is registered, then it answers orderId and formUrl, and the order reads as status 0 with no payment attempt', async () => {
    const before = Date.now();
    const { orderId, orderNumber: number, reply } = await sandbox.register({ amount: '125500', currency: '788', language: 'fr', description: 'Two books', jsonParams: '{"a":"b"}', sessionTimeoutSecs: '1200' });
    assert.equal(reply.status, 200);
    // As deployed: a successful register.do carries no error code at all.
    assert.deepEqual(Object.keys(reply.body), ['orderId', 'formUrl']);
    assert.equal(codeOf(reply.body), undefined);
    assert.match(orderId, UUID);
    assert.equal(reply.body['formUrl'], `https://sandbox.example.tn/payment/merchants/sandbox/payment.html?mdOrder=${orderId}`);

    const status = await sandbox.status(orderId);
    // getOrderStatusExtended.do writes its errorCode as a number.
    assert.deepEqual(status, {
      errorCode: 0,
      errorMessage: 'Success',
      orderNumber: number,
      orderStatus: 0,
      actionCode: -100,
      actionCodeDescription: 'No payment attempts',
      amount: 125500,
      currency: '788',
      date: status['date'],
      paymentAmountInfo: { approvedAmount: 0, depositedAmount: 0, refundedAmount: 0, paymentState: 'CREATED' },
    });
    assert.ok(typeof status['date'] === 'number' && status['date'] >= before && status['date'] <= Date.now());
  });

  it('When a mandatory field is missing, then errorCode "4"', async () => {
    for (const drop of ['orderNumber', 'amount', 'returnUrl']) {
      const fields: Record<string, string> = { orderNumber: orderNumber(), amount: '1000', returnUrl: RETURN_URL };
      delete fields[drop];
      const res = await sandbox.call('register.do', fields);
      assert.equal(codeOf(res.body), '4', drop);
    }
    const empty = await sandbox.call('register.do', { orderNumber: '', amount: '1000', returnUrl: RETURN_URL });
    assert.equal(codeOf(empty.body), '4');
  });

  it('When orderNumber, amount, returnUrl, failUrl or language is malformed, then errorCode "5"', async () => {
    const cases: Record<string, string>[] = [
      { orderNumber: 'x'.repeat(33) },
      { amount: '0' },
      { amount: '-5' },
      { amount: '12.5' },
      { amount: '1e3' },
      { amount: '1000000000' },
      { amount: '99999999999' },
      { returnUrl: 'ftp://merchant.example.tn/r' },
      { returnUrl: '/relative/path' },
      { failUrl: 'javascript:alert(1)' },
      { language: 'de' },
    ];
    for (const override of cases) {
      const res = await sandbox.register(override);
      assert.equal(codeOf(res.reply.body), '5', JSON.stringify(override));
    }
    const longest = await sandbox.register({ orderNumber: `${orderNumber()}`.padEnd(32, 'z'), amount: '999999999' });
    assert.ok(longest.reply.body['orderId']);
  });

  it('When the currency is not 788, then errorCode "3" Unknown currency', async () => {
    const res = await sandbox.register({ currency: '978' });
    assert.deepEqual(res.reply.body, { errorCode: '3', errorMessage: 'Unknown currency' });
  });

  it('When the terminal registers an orderNumber twice, then errorCode "1"; another terminal may use it', async () => {
    const first = await sandbox.register();
    const again = await sandbox.register({ orderNumber: first.orderNumber, amount: '999' });
    assert.deepEqual(again.reply.body, { errorCode: '1', errorMessage: 'Order with this number was already processed' });
    const other = await sandbox.register({ orderNumber: first.orderNumber }, OTHER_TERMINAL);
    assert.ok(other.reply.body['orderId']);
  });

  it('When looked up by orderNumber, then the same order answers; orderId wins when both are given', async () => {
    const a = await sandbox.register({ amount: '1000' });
    const b = await sandbox.register({ amount: '2000' });
    const byNumber = await sandbox.call('getOrderStatusExtended.do', { orderNumber: a.orderNumber });
    assert.equal(codeOf(byNumber.body), '0');
    assert.equal(byNumber.body['amount'], 1000);
    const both = await sandbox.call('getOrderStatusExtended.do', { orderId: b.orderId, orderNumber: a.orderNumber });
    assert.equal(both.body['orderNumber'], b.orderNumber);
    const unknownId = await sandbox.call('getOrderStatusExtended.do', { orderId: '00000000-0000-4000-8000-000000000000', orderNumber: a.orderNumber });
    assert.deepEqual(unknownId.body, { errorCode: 6, errorMessage: 'Order not found' });
    const neither = await sandbox.call('getOrderStatusExtended.do', {});
    assert.equal(codeOf(neither.body), '4');
    const unknownNumber = await sandbox.call('getOrderStatusExtended.do', { orderNumber: 'never-registered' });
    assert.equal(codeOf(unknownNumber.body), '6');
  });

  it("When another terminal asks about an order, by id or number, pays, reverses or refunds it, then errorCode \"6\" and the order is untouched", async () => {
    const { orderId, orderNumber: number } = await sandbox.register();
    assert.equal(codeOf((await sandbox.call('getOrderStatusExtended.do', { orderId }, OTHER_TERMINAL)).body), '6');
    assert.equal(codeOf((await sandbox.call('getOrderStatusExtended.do', { orderNumber: number }, OTHER_TERMINAL)).body), '6');
    const pay = await sandbox.call('paymentorder.do', { MDORDER: orderId, $PAN: '4242424242424242', $CVC: '737', YYYY: '2099', MM: '01' }, OTHER_TERMINAL);
    assert.equal(codeOf(pay.body), '6');
    assert.equal(codeOf((await sandbox.call('reverse.do', { orderId }, OTHER_TERMINAL)).body), '6');
    assert.equal(codeOf((await sandbox.call('refund.do', { orderId, amount: '1' }, OTHER_TERMINAL)).body), '6');
    assert.equal((await sandbox.status(orderId)).orderStatus, 0);
  });
});

describe('epg-sandbox: retention', () => {
  let sandbox: Harness;

  before(async () => {
    sandbox = await startHarness({ SANDBOX_ORDER_RETENTION: '3' });
  });
  after(async () => {
    await sandbox?.stop();
  });

  it('When more orders are registered than retained, then the oldest is forgotten by id and number, and its number may be used again', async () => {
    const orders = [];
    for (let i = 0; i < 4; i += 1) orders.push(await sandbox.register());
    const [oldest, ...kept] = orders;
    assert.ok(oldest);
    assert.equal(codeOf(await sandbox.status(oldest.orderId)), '6');
    assert.equal(codeOf((await sandbox.call('getOrderStatusExtended.do', { orderNumber: oldest.orderNumber })).body), '6');
    for (const order of kept) assert.equal(codeOf(await sandbox.status(order.orderId)), '0');

    const reused = await sandbox.register({ orderNumber: oldest.orderNumber });
    assert.ok(reused.reply.body['orderId']);
    const byNumber = await sandbox.call('getOrderStatusExtended.do', { orderNumber: oldest.orderNumber });
    assert.equal(codeOf(byNumber.body), '0');
    assert.equal(codeOf(await sandbox.status(kept[0]?.orderId ?? '')), '6');
  });
});
