/** Two-phase orders: registerPreAuth.do, a payment that holds the funds, deposit.do and reverse.do on the hold, and D8's capture cards. */
import assert from 'node:assert/strict';
import { answerChallenge, postForm } from './acs-browser.js';
import { codeOf, OTHER_TERMINAL, orderNumber, RETURN_URL, startHarness, type Body, type Harness, type Reply } from './sandbox-harness.js';

const APPROVING_CARD = '4242424242424242';
const CHALLENGE_CARD = '4000000000003063';
const SLOW_CARD = '4000000000000036';
const CAPTURE_REFUSED_CARD = '4000000000007007';
const CAPTURE_UNCONFIRMED_CARD = '4000000000007015';
const CAPTURE_SILENT_CARD = '4000000000007023';
const AMOUNT = 125500;
const SLOW_DELAY_MS = 300;

describe('epg-sandbox: two-phase orders', () => {
  let sandbox: Harness;

  before(async () => {
    sandbox = await startHarness({ SANDBOX_SLOW_DELAY_MS: String(SLOW_DELAY_MS) });
  });
  after(async () => {
    await sandbox?.stop();
  });

  /** registerPreAuth.do with the fields the harness's register() sends. */
  async function registerPreAuth(fields: Record<string, string> = {}): Promise<{ orderId: string; reply: Reply }> {
    const reply = await sandbox.call('registerPreAuth.do', { orderNumber: orderNumber(), amount: String(AMOUNT), returnUrl: RETURN_URL, ...fields });
    return { orderId: String(reply.body['orderId']), reply };
  }

  /** A two-phase order paid with `pan`, read back as held. */
  async function heldOrder(pan = APPROVING_CARD): Promise<{ orderId: string; held: Body }> {
    const { orderId } = await registerPreAuth();
    const paid = await sandbox.pay(orderId, pan);
    assert.equal(codeOf(paid.body), '0');
    const held = await sandbox.status(orderId);
    assert.equal(held.orderStatus, 1);
    return { orderId, held };
  }

  function deposit(orderId: string, amount: string): Promise<Reply> {
    return sandbox.call('deposit.do', { orderId, amount });
  }

  it('When a two-phase order is paid with an approving card, then it reads status 1 APPROVED: approved, nothing deposited, no depositedDate', async () => {
    const { orderId, reply } = await registerPreAuth();
    assert.deepEqual(Object.keys(reply.body), ['orderId', 'formUrl']);
    assert.equal(codeOf(reply.body), undefined);
    assert.match(String(reply.body['formUrl']), /\/payment\/merchants\/sandbox\/payment\.html\?mdOrder=/);
    assert.equal((await sandbox.status(orderId)).orderStatus, 0);

    const paid = await sandbox.pay(orderId, APPROVING_CARD);
    assert.deepEqual(paid.body, { errorCode: '0', errorMessage: 'Success', info: 'Your order is proceeded, redirecting...', redirect: `${RETURN_URL}?orderId=${orderId}` });
    const status = await sandbox.status(orderId);
    assert.equal(status.orderStatus, 1);
    assert.equal(status.actionCode, 0);
    assert.match(String(status.cardAuthInfo?.approvalCode), /^[0-9]{6}$/);
    assert.equal(status['depositedDate'], undefined);
    assert.deepEqual(status.paymentAmountInfo, { approvedAmount: AMOUNT, depositedAmount: 0, refundedAmount: 0, paymentState: 'APPROVED' });
  });

  it('When a hold is deposited with amount 0, then "0" and it reads status 2 with the whole hold deposited and dated', async () => {
    const { orderId } = await heldOrder();
    const before = Date.now();
    assert.deepEqual((await deposit(orderId, '0')).body, { ErrorCode: '0', ErrorMessage: 'Success' });
    const status = await sandbox.status(orderId);
    assert.equal(status.orderStatus, 2);
    assert.ok(typeof status['depositedDate'] === 'number' && status['depositedDate'] >= before && status['depositedDate'] <= Date.now());
    assert.deepEqual(status.paymentAmountInfo, { approvedAmount: AMOUNT, depositedAmount: AMOUNT, refundedAmount: 0, paymentState: 'DEPOSITED' });
  });

  it('When a hold is deposited with its own amount, then the whole hold is deposited', async () => {
    const { orderId } = await heldOrder();
    assert.equal(codeOf((await deposit(orderId, String(AMOUNT))).body), '0');
    assert.equal((await sandbox.status(orderId)).paymentAmountInfo?.depositedAmount, AMOUNT);
  });

  it('When part of a hold is deposited, then only that part is deposited, and refunds are limited to it', async () => {
    const { orderId } = await heldOrder();
    assert.equal(codeOf((await deposit(orderId, '100000')).body), '0');
    let status = await sandbox.status(orderId);
    assert.equal(status.orderStatus, 2);
    assert.deepEqual(status.paymentAmountInfo, { approvedAmount: AMOUNT, depositedAmount: 100000, refundedAmount: 0, paymentState: 'DEPOSITED' });

    assert.deepEqual((await sandbox.call('refund.do', { orderId, amount: '100001' })).body, { ErrorCode: '5', ErrorMessage: 'Invalid amount' });
    assert.equal(codeOf((await sandbox.call('refund.do', { orderId, amount: '60000' })).body), '0');
    assert.equal(codeOf((await sandbox.call('refund.do', { orderId, amount: '40001' })).body), '5');
    assert.equal(codeOf((await sandbox.call('refund.do', { orderId, amount: '40000' })).body), '0');
    status = await sandbox.status(orderId);
    assert.equal(status.orderStatus, 4);
    assert.deepEqual(status.paymentAmountInfo, { approvedAmount: AMOUNT, depositedAmount: 100000, refundedAmount: 100000, paymentState: 'REFUNDED' });
  });

  it('When a deposit is above the hold, then "5" and the order is still held; a hold is deposited once, a second deposit answers "7"', async () => {
    const { orderId, held } = await heldOrder();
    assert.deepEqual((await deposit(orderId, String(AMOUNT + 1))).body, { ErrorCode: '5', ErrorMessage: 'amount is invalid' });
    assert.deepEqual(await sandbox.status(orderId), held);

    assert.equal(codeOf((await deposit(orderId, '0')).body), '0');
    assert.deepEqual((await deposit(orderId, '0')).body, { ErrorCode: '7', ErrorMessage: 'Wrong order state' });
    assert.equal((await sandbox.status(orderId)).paymentAmountInfo?.depositedAmount, AMOUNT);
  });

  it('When the deposit amount is malformed, then "5"; orderId or amount missing, then "4"; the order unknown or another terminal\'s, then "6"', async () => {
    const { orderId, held } = await heldOrder();
    for (const amount of ['-1', '1.5', 'abc', '1e3', '+0', '1000000000']) {
      assert.equal(codeOf((await deposit(orderId, amount)).body), '5', amount);
    }
    assert.equal(codeOf((await sandbox.call('deposit.do', { orderId })).body), '4');
    assert.equal(codeOf((await sandbox.call('deposit.do', { amount: '0' })).body), '4');
    assert.equal(codeOf((await deposit('00000000-0000-4000-8000-000000000000', '0')).body), '6');
    assert.equal(codeOf((await sandbox.call('deposit.do', { orderId, amount: '0' }, OTHER_TERMINAL)).body), '6');
    assert.deepEqual(await sandbox.status(orderId), held);
  });

  it('When a one-phase order, or a two-phase order registered or declined, is deposited, then "7" Wrong order state', async () => {
    const onePhase = await sandbox.register();
    await sandbox.pay(onePhase.orderId, APPROVING_CARD);
    const before = await sandbox.status(onePhase.orderId);
    assert.equal(before.orderStatus, 2);
    assert.deepEqual((await deposit(onePhase.orderId, '0')).body, { ErrorCode: '7', ErrorMessage: 'Wrong order state' });
    assert.deepEqual(await sandbox.status(onePhase.orderId), before);

    const registered = await registerPreAuth();
    assert.equal(codeOf((await deposit(registered.orderId, '0')).body), '7');
    const declined = await registerPreAuth();
    await sandbox.pay(declined.orderId, '4000000000000002');
    assert.equal((await sandbox.status(declined.orderId)).orderStatus, 6);
    assert.equal(codeOf((await deposit(declined.orderId, '0')).body), '7');
  });

  it('When a hold is reversed, then it is released: status 3, nothing approved or deposited; a second reverse and a later deposit answer "7"', async () => {
    const { orderId } = await heldOrder();
    assert.deepEqual((await sandbox.call('reverse.do', { orderId })).body, { ErrorCode: '0', ErrorMessage: 'Success' });
    const status = await sandbox.status(orderId);
    assert.equal(status.orderStatus, 3);
    assert.deepEqual(status.paymentAmountInfo, { approvedAmount: 0, depositedAmount: 0, refundedAmount: 0, paymentState: 'REVERSED' });
    assert.equal(codeOf((await sandbox.call('reverse.do', { orderId })).body), '7');
    assert.equal(codeOf((await deposit(orderId, '0')).body), '7');
    assert.equal((await sandbox.status(orderId)).orderStatus, 3);
  });

  it('When a held order has been deposited, then reverse.do voids it as it does a one-phase payment', async () => {
    const { orderId } = await heldOrder();
    await deposit(orderId, '0');
    assert.equal(codeOf((await sandbox.call('reverse.do', { orderId })).body), '0');
    assert.equal((await sandbox.status(orderId)).orderStatus, 3);
  });

  it('When the 3-D Secure card pays a two-phase order and the challenge is passed, then the order is held with eci 05, and can be deposited', async () => {
    const { orderId } = await registerPreAuth();
    const challenge = await sandbox.pay(orderId, CHALLENGE_CARD);
    assert.equal((await sandbox.status(orderId)).orderStatus, 5);
    const page = await postForm(`${sandbox.baseUrl}/acs`, { PaReq: String(challenge.body['paReq']), MD: orderId, TermUrl: 'https://merchant.example.tn/3ds' });
    const yes = (await answerChallenge(sandbox.baseUrl, page.text, 'Y')).fields['PaRes'];
    assert.ok(yes);

    const finished = await sandbox.call('finish3dsPayment.do', { mdOrder: orderId, paRes: yes });
    assert.deepEqual(finished.body, { errorCode: '0', errorMessage: 'Success', redirect: `${RETURN_URL}?orderId=${orderId}` });
    const held = await sandbox.status(orderId);
    assert.equal(held.orderStatus, 1);
    assert.deepEqual(held.cardAuthInfo?.secureAuthInfo, { eci: '05' });
    assert.equal(held['depositedDate'], undefined);
    assert.deepEqual(held.paymentAmountInfo, { approvedAmount: AMOUNT, depositedAmount: 0, refundedAmount: 0, paymentState: 'APPROVED' });
    assert.equal(codeOf((await deposit(orderId, '0')).body), '0');
    assert.equal((await sandbox.status(orderId)).orderStatus, 2);
  });

  it('When the slow card pays a two-phase order, then the funds are held at once while the answer arrives only after the delay', async () => {
    const { orderId } = await registerPreAuth();
    const started = Date.now();
    let answeredAt = 0;
    const pending = sandbox.pay(orderId, SLOW_CARD).then((res) => {
      answeredAt = Date.now();
      return res;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const during = await sandbox.status(orderId);
    assert.equal(answeredAt, 0, 'the payment answered before the delay');
    assert.equal(during.orderStatus, 1);
    assert.equal(during.paymentAmountInfo?.depositedAmount, 0);
    assert.equal(codeOf((await pending).body), '0');
    assert.ok(answeredAt - started >= SLOW_DELAY_MS - 10, `answered after ${answeredAt - started} ms`);
  });

  it('When card 7007 is held and deposited, then "5" Capture refused and the hold stays; it can still be released', async () => {
    const { orderId, held } = await heldOrder(CAPTURE_REFUSED_CARD);
    assert.deepEqual(held.paymentAmountInfo, { approvedAmount: AMOUNT, depositedAmount: 0, refundedAmount: 0, paymentState: 'APPROVED' });
    assert.deepEqual((await deposit(orderId, '0')).body, { ErrorCode: '5', ErrorMessage: 'Capture refused by the issuer' });
    assert.deepEqual(await sandbox.status(orderId), held);
    assert.equal(codeOf((await sandbox.call('reverse.do', { orderId })).body), '0');
    assert.equal((await sandbox.status(orderId)).orderStatus, 3);
  });

  it('When card 7015 is held and deposited, then "7" System error and nothing is deposited: the hold stays', async () => {
    const { orderId, held } = await heldOrder(CAPTURE_UNCONFIRMED_CARD);
    assert.deepEqual((await deposit(orderId, '50000')).body, { ErrorCode: '7', ErrorMessage: 'System error' });
    assert.deepEqual(await sandbox.status(orderId), held);
  });

  it('When card 7023 is held and deposited, then the deposit takes effect at once while its answer arrives only after the delay', async () => {
    const { orderId } = await heldOrder(CAPTURE_SILENT_CARD);
    const started = Date.now();
    let answeredAt = 0;
    const pending = deposit(orderId, '100000').then((res) => {
      answeredAt = Date.now();
      return res;
    });

    await new Promise((resolve) => setTimeout(resolve, 50));
    const during = await sandbox.status(orderId);
    assert.equal(answeredAt, 0, 'the deposit answered before the delay');
    assert.equal(during.orderStatus, 2);
    assert.deepEqual(during.paymentAmountInfo, { approvedAmount: AMOUNT, depositedAmount: 100000, refundedAmount: 0, paymentState: 'DEPOSITED' });
    // A caller that gave up and asks again is told the hold is gone.
    assert.equal(codeOf((await deposit(orderId, '0')).body), '7');

    assert.deepEqual((await pending).body, { ErrorCode: '0', ErrorMessage: 'Success' });
    assert.ok(answeredAt - started >= SLOW_DELAY_MS - 10, `answered after ${answeredAt - started} ms`);
  });

  it('When registerPreAuth.do is given what register.do refuses, then the same errorCode: "4" missing, "5" malformed, "3" currency, "1" a number already used', async () => {
    const missing = await sandbox.call('registerPreAuth.do', { orderNumber: orderNumber(), returnUrl: RETURN_URL });
    assert.deepEqual(missing.body, { errorCode: '4', errorMessage: 'amount is required' });
    for (const override of [{ amount: '0' }, { returnUrl: '/relative' }, { language: 'de' }, { orderNumber: 'x'.repeat(33) }] as Record<string, string>[]) {
      const onePhase = await sandbox.register(override);
      const twoPhase = await registerPreAuth(override);
      assert.equal(codeOf(twoPhase.reply.body), '5', JSON.stringify(override));
      assert.deepEqual(twoPhase.reply.body, onePhase.reply.body);
    }
    assert.deepEqual((await registerPreAuth({ currency: '978' })).reply.body, { errorCode: '3', errorMessage: 'Unknown currency' });

    const used = await sandbox.register();
    const again = await registerPreAuth({ orderNumber: used.orderNumber });
    assert.equal(codeOf(again.reply.body), '1');
  });

  it('When deposit.do is called, then its log line names the call, the order and the errorCode, and nothing else of the form', async () => {
    const { orderId } = await heldOrder();
    await deposit(orderId, '0');
    const line = sandbox.logs
      .map((text) => JSON.parse(text) as Record<string, unknown>)
      .filter((entry) => entry['msg'] === 'call' && entry['call'] === 'deposit.do')
      .at(-1);
    assert.equal(line?.['orderId'], orderId);
    assert.equal(line?.['errorCode'], '0');
    assert.equal(line?.['amount'], undefined);
  });
});
