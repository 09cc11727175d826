/** D8's card 0036: the acquirer charges at once but answers only after SANDBOX_SLOW_DELAY_MS. */
import assert from 'node:assert/strict';
import { codeOf, RETURN_URL, startHarness, type Harness } from './sandbox-harness.js';

const SLOW_CARD = '4000000000000036';

describe('epg-sandbox: the card that is answered too late', () => {
  let sandbox: Harness;

  before(async () => {
    // Long enough that a status query on a busy host still comes back well inside it.
    sandbox = await startHarness({ SANDBOX_SLOW_DELAY_MS: '1500' });
  });
  after(async () => {
    await sandbox?.stop();
  });

  it('When the slow card pays, then the order is deposited at once while its answer arrives only after the delay', async () => {
    const { orderId } = await sandbox.register();
    const started = Date.now();
    let answeredAt = 0;
    const pending = sandbox.pay(orderId, SLOW_CARD).then((res) => {
      answeredAt = Date.now();
      return res;
    });

    await new Promise((resolve) => setTimeout(resolve, 50));
    const during = await sandbox.status(orderId);
    const queriedAt = Date.now();
    assert.equal(answeredAt, 0, 'the payment answered before the delay');
    assert.ok(queriedAt - started < 1500, 'the status query waited for the slow payment');
    assert.equal(during.orderStatus, 2);
    assert.equal(during.paymentAmountInfo?.paymentState, 'DEPOSITED');

    const paid = await pending;
    assert.ok(answeredAt - started >= 1490, `answered after ${answeredAt - started} ms`);
    assert.deepEqual(paid.body, {
      errorCode: '0',
      errorMessage: 'Success',
      info: 'Your order is proceeded, redirecting...',
      redirect: `${RETURN_URL}?orderId=${orderId}`,
    });
  });
});

describe('epg-sandbox: stopping while an answer is held back', () => {
  it('When the service stops during the delay, then the held answer goes out at once and the stop completes', async () => {
    const sandbox = await startHarness({ SANDBOX_SLOW_DELAY_MS: '60000' });
    const { orderId } = await sandbox.register();
    const pending = sandbox.pay(orderId, SLOW_CARD);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = Date.now();
    await sandbox.stop();
    const paid = await pending;
    assert.equal(codeOf(paid.body), '0');
    assert.ok(Date.now() - started < 5000);
  });
});
