/**
 * recurrentPayment.do (ACQUIRER.md "Saved cards (D24)"): a saved card charged
 * without the buyer, at /payment/rest/ and at /payment/recurrentPayment.do;
 * D24's two cards, the 3-D Secure cards approved with no one to challenge,
 * the other cards as on the page, a card expired since it was saved, and the
 * log lines of the saved-card calls.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { saveCard, savedCards, type SavedCard } from './saved-card-steps.js';
import { codeOf, OTHER_TERMINAL, orderNumber, read, startHarness, TERMINAL, type Harness, type Reply } from './sandbox-harness.js';

const SLOW_DELAY_MS = 300;

/** Every string value of a parsed log line, however deep. */
function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(stringsOf);
  return [];
}

describe('epg-sandbox: recurrentPayment.do', () => {
  let sandbox: Harness;
  /** The sandbox's clock: the wall clock, moved on by a test that needs a card to expire. */
  let clockOffsetMs = 0;

  before(async () => {
    sandbox = await startHarness({ SANDBOX_SLOW_DELAY_MS: String(SLOW_DELAY_MS) }, { now: () => new Date(Date.now() + clockOffsetMs) });
  });
  after(async () => {
    await sandbox?.stop();
  });

  function charge(bindingId: string, fields: Record<string, string> = {}, credentials?: Record<string, string>): Promise<Reply> {
    return sandbox.call('recurrentPayment.do', { orderNumber: orderNumber(), bindingId, amount: '45000', currency: '788', description: 'Monthly plan', tii: 'R', ...fields }, credentials);
  }

  /** recurrentPayment.do at the real gateway's path, outside /payment/rest/. */
  async function chargeAtGatewayPath(fields: Record<string, string>): Promise<Reply> {
    const res = await fetch(`${sandbox.baseUrl}/payment/recurrentPayment.do`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...TERMINAL, ...fields }).toString(),
    });
    return read(res);
  }

  const newClient = () => `cus_${randomUUID()}`;

  it('When a saved card is charged, then the answer is errorCode "0" and a new orderId, and the order reads deposited with the saved card and bindingInfo, without 3-D Secure', async () => {
    const card = await saveCard(sandbox, '4242424242424242', newClient());
    const number = orderNumber();
    const charged = await charge(card.bindingId, { orderNumber: number, tii: 'R' });
    assert.deepEqual(Object.keys(charged.body), ['errorCode', 'errorMessage', 'orderId']);
    assert.deepEqual([charged.body.errorCode, charged.body.errorMessage], ['0', 'Success']);
    const orderId = String(charged.body['orderId']);
    assert.notEqual(orderId, card.orderId);
    const status = await sandbox.status(orderId);
    assert.deepEqual([status.orderStatus, status.actionCode, status['orderNumber'], status['amount']], [2, 0, number, 45000]);
    assert.deepEqual(status.paymentAmountInfo, { approvedAmount: 45000, depositedAmount: 45000, refundedAmount: 0, paymentState: 'DEPOSITED' });
    assert.equal(status.cardAuthInfo?.maskedPan, '424242**4242');
    assert.equal(status.cardAuthInfo?.secureAuthInfo, undefined);
    assert.deepEqual(status.bindingInfo, { clientId: card.clientId, bindingId: card.bindingId });
    // Found by its number too, and refundable as any payment.
    assert.equal((await sandbox.call('getOrderStatusExtended.do', { orderNumber: number })).body['orderStatus'], 2);
    assert.equal(codeOf((await sandbox.call('refund.do', { orderId, amount: '45000' })).body), '0');

    const unscheduled = await charge(card.bindingId, { tii: 'U' });
    assert.equal((await sandbox.status(String(unscheduled.body['orderId']))).orderStatus, 2);
  });

  it('When recurrentPayment.do is posted at /payment/recurrentPayment.do, then it charges the same way and logs as the same call; another method there is 405', async () => {
    const card = await saveCard(sandbox, '4242424242424242', newClient());
    const number = orderNumber();
    const charged = await chargeAtGatewayPath({ orderNumber: number, bindingId: card.bindingId, amount: '1000', tii: 'U' });
    assert.equal(charged.status, 200);
    assert.equal(codeOf(charged.body), '0');
    assert.equal((await sandbox.status(String(charged.body['orderId']))).orderStatus, 2);
    const duplicate = await chargeAtGatewayPath({ orderNumber: number, bindingId: card.bindingId, amount: '1000', tii: 'U' });
    assert.deepEqual(duplicate.body, { errorCode: '1', errorMessage: 'Order with this number was already processed' });
    const wrongPassword = await chargeAtGatewayPath({ password: 'wrong', orderNumber: orderNumber(), bindingId: card.bindingId, amount: '1000', tii: 'U' });
    assert.deepEqual(wrongPassword.body, { errorCode: '5', errorMessage: 'Access denied' });

    const get = await fetch(`${sandbox.baseUrl}/payment/recurrentPayment.do`);
    assert.equal(get.status, 405);
    assert.equal(get.headers.get('allow'), 'POST');
    await get.arrayBuffer();
    const line = sandbox.logs.map((text) => JSON.parse(text) as Record<string, unknown>).find((entry) => entry['msg'] === 'call' && entry['orderNumber'] === number);
    assert.equal(line?.['call'], 'recurrentPayment.do');
    assert.equal(line?.['orderId'], charged.body['orderId']);
    for (const path of ['/payment/recurrentpayment.do', '/payment/recurrentPayment.do/', '/payment/getBindings.do']) {
      const res = await fetch(`${sandbox.baseUrl}${path}`, { method: 'POST' });
      assert.equal(res.status, 404, path);
      await res.arrayBuffer();
    }
  });

  it('When card 3055 is saved on the page, then every later charge without the buyer is declined insufficient funds (116)', async () => {
    const card = await saveCard(sandbox, '4000000000003055', newClient());
    assert.equal(card.status.orderStatus, 2);
    for (const tii of ['R', 'U', 'R']) {
      const charged = await charge(card.bindingId, { tii });
      assert.equal(codeOf(charged.body), '0');
      const status = await sandbox.status(String(charged.body['orderId']));
      assert.deepEqual([status.orderStatus, status.actionCode, status.paymentAmountInfo?.paymentState], [6, 116, 'DECLINED']);
      assert.equal(status['actionCodeDescription'], 'Declined: insufficient funds');
    }
    assert.equal((await savedCards(sandbox, card.clientId)).length, 1, 'a decline leaves the card saved');
  });

  it('When card 3184 is saved on the page, then every charge without the buyer fails with actionCode 2001: the issuer wants the buyer', async () => {
    const card = await saveCard(sandbox, '4000002760003184', newClient());
    assert.equal(card.status.orderStatus, 2);
    for (const tii of ['U', 'R']) {
      const status = await sandbox.status(String((await charge(card.bindingId, { tii })).body['orderId']));
      assert.deepEqual([status.orderStatus, status.actionCode], [6, 2001]);
      assert.equal(status['actionCodeDescription'], 'Declined: the issuer requires the cardholder to authenticate');
    }
  });

  it('When a 3-D Secure card (challenge, frictionless, legacy) is charged without the buyer, then it is approved: no one can be challenged', async () => {
    for (const pan of ['4000000000003220', '4000000000003238', '4000000000003063']) {
      const card = await saveCard(sandbox, pan, newClient());
      const status = await sandbox.status(String((await charge(card.bindingId)).body['orderId']));
      assert.deepEqual([status.orderStatus, status.actionCode], [2, 0], pan);
      assert.equal(status.cardAuthInfo?.secureAuthInfo, undefined, pan);
    }
  });

  it("When other cards are charged without the buyer, then they keep their usual outcome: 5126's refunds unconfirmed, a Mastercard's masked number as pan only", async () => {
    const unconfirmed = await saveCard(sandbox, '4000000000005126', newClient());
    const orderId = String((await charge(unconfirmed.bindingId)).body['orderId']);
    assert.equal((await sandbox.status(orderId)).orderStatus, 2);
    assert.deepEqual((await sandbox.call('refund.do', { orderId, amount: '1000' })).body, { ErrorCode: '7', ErrorMessage: 'System error' });
    const mastercard = await saveCard(sandbox, '5555555555554444', newClient());
    assert.equal((await sandbox.status(String((await charge(mastercard.bindingId)).body['orderId']))).cardAuthInfo?.pan, '555555**4444');
  });

  it('When the silent card is charged without the buyer, then the order is deposited at once and the answer comes only after the delay', async () => {
    const card = await saveCard(sandbox, '4000000000000036', newClient());
    const number = orderNumber();
    const started = Date.now();
    let answeredAt = 0;
    const pending = charge(card.bindingId, { orderNumber: number }).then((res) => {
      answeredAt = Date.now();
      return res;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const during = await sandbox.call('getOrderStatusExtended.do', { orderNumber: number });
    assert.equal(answeredAt, 0, 'the charge answered before the delay');
    assert.equal(during.body.orderStatus, 2);
    assert.equal(codeOf((await pending).body), '0');
    assert.ok(answeredAt - started >= SLOW_DELAY_MS - 10, `answered after ${answeredAt - started} ms`);
  });

  it('When a field is missing, then "4"; malformed, "5"; another currency, "3"; the binding unknown or another terminal\'s, "2"; a used orderNumber, "1"; and a refused call registers nothing', async () => {
    const card = await saveCard(sandbox, '4242424242424242', newClient());
    const used = await sandbox.register();
    const cases: [Record<string, string>, string][] = [
      [{ orderNumber: '' }, '4'],
      [{ bindingId: '' }, '4'],
      [{ amount: '' }, '4'],
      [{ tii: '' }, '4'],
      [{ orderNumber: 'x'.repeat(33) }, '5'],
      [{ amount: '0' }, '5'],
      [{ amount: '12.5' }, '5'],
      [{ tii: 'F' }, '5'],
      [{ tii: 'X' }, '5'],
      [{ currency: '978' }, '3'],
      [{ bindingId: randomUUID() }, '2'],
      [{ orderNumber: used.orderNumber }, '1'],
    ];
    for (const [fields, code] of cases) {
      const number = fields['orderNumber'] ?? orderNumber();
      const res = await charge(card.bindingId, { ...fields, orderNumber: number });
      assert.equal(codeOf(res.body), code, JSON.stringify(fields));
      assert.equal(res.body['orderId'], undefined, JSON.stringify(fields));
      if (code !== '1' && number !== '') assert.equal(codeOf((await sandbox.call('getOrderStatusExtended.do', { orderNumber: number })).body), '6', JSON.stringify(fields));
    }
    const number = orderNumber();
    assert.deepEqual((await charge(card.bindingId, { orderNumber: number }, OTHER_TERMINAL)).body, { errorCode: '2', errorMessage: 'Binding not found' });
    assert.equal(codeOf((await sandbox.call('getOrderStatusExtended.do', { orderNumber: number }, OTHER_TERMINAL)).body), '6');
    // The number a refusal did not use is still free.
    assert.equal(codeOf((await charge(card.bindingId, { orderNumber: number })).body), '0');
  });

  it('When the saved card has expired since, then getBindings.do leaves it out unless showExpired=true, and a charge is declined expired card (101)', async () => {
    const now = new Date();
    const thisMonth = { YYYY: String(now.getUTCFullYear()), MM: String(now.getUTCMonth() + 1).padStart(2, '0') };
    const card: SavedCard = await saveCard(sandbox, '4242424242424242', newClient(), thisMonth);
    assert.equal((await savedCards(sandbox, card.clientId)).length, 1);
    clockOffsetMs = 32 * 24 * 3600 * 1000;
    try {
      assert.deepEqual(await savedCards(sandbox, card.clientId), []);
      assert.deepEqual(await savedCards(sandbox, card.clientId, 'false'), []);
      assert.deepEqual((await savedCards(sandbox, card.clientId, 'true')).map((binding) => binding.bindingId), [card.bindingId]);
      const status = await sandbox.status(String((await charge(card.bindingId)).body['orderId']));
      assert.deepEqual([status.orderStatus, status.actionCode], [6, 101]);
    } finally {
      clockOffsetMs = 0;
    }
  });

  it('When saved-card calls are made, then their log lines name the call and errorCode but never a card number, security code, clientId or bindingId', async () => {
    const clientId = newClient();
    const card = await saveCard(sandbox, '4000000000003055', clientId, { $CVC: '9173' });
    const { orderId } = await sandbox.register({ clientId });
    await sandbox.call('paymentOrderBinding.do', { mdOrder: orderId, bindingId: card.bindingId, ip: '197.15.2.40', cvc: '482' });
    await charge(card.bindingId);
    await chargeAtGatewayPath({ orderNumber: orderNumber(), bindingId: card.bindingId, amount: '1000', tii: 'U' });
    await sandbox.call('getBindings.do', { clientId });
    await sandbox.call('unBindCard.do', { bindingId: card.bindingId });

    const lines = sandbox.logs.map((text) => JSON.parse(text) as Record<string, unknown>);
    const calls = lines.filter((line) => line['msg'] === 'call').map((line) => [line['call'], line['errorCode']]);
    for (const call of ['paymentOrderBinding.do', 'recurrentPayment.do', 'getBindings.do', 'unBindCard.do']) assert.ok(calls.some(([name, code]) => name === call && code === '0'), call);
    const text = sandbox.logs.join('\n');
    for (const secret of ['4000000000003055', clientId, card.bindingId]) assert.ok(!text.includes(secret), `the log holds ${secret}`);
    // Short codes could sit inside an id or a time by chance: no logged value is one.
    for (const line of lines) assert.ok(!stringsOf(line).some((value) => value === '9173' || value === '482'), 'a log value is a security code');
  });
});
