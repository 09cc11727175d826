/**
 * 3-D Secure 2 without a challenge (D30's cards 3238 and 3246): paymentorder.do's
 * first answer, the 3DS Method URL, the repeat with threeDSServerTransId and
 * its checks, and the buyer fields that go with the card.
 */
import assert from 'node:assert/strict';
import { postForm } from './acs-browser.js';
import { codeOf, RETURN_URL, startHarness, type Harness } from './sandbox-harness.js';

const FRICTIONLESS_CARD = '4000000000003238';
const REFUSED_CARD = '4000000000003246';
const PUBLIC_URL = 'https://sandbox.example.tn';
const FINISH_URL = 'https://merchant.example.tn/checkout/tok/3ds/pa_1';
const BUYER = { ip: '197.15.2.40', email: 'amina@example.tn', threeDSVer2FinishUrl: FINISH_URL };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('epg-sandbox: 3-D Secure 2, frictionless and refused', () => {
  let sandbox: Harness;

  before(async () => {
    sandbox = await startHarness({ SANDBOX_PUBLIC_URL: PUBLIC_URL });
  });
  after(async () => {
    await sandbox?.stop();
  });

  /** A registered order paid with `pan` and the buyer's fields: its first 3-D Secure 2 answer. */
  async function firstStep(pan: string, fields: Record<string, string> = BUYER) {
    const { orderId } = await sandbox.register();
    const res = await sandbox.pay(orderId, pan, fields);
    return { orderId, body: res.body, transId: String(res.body['threeDSServerTransId']) };
  }

  it('When a 3-D Secure 2 card with a 3DS Method pays, then the first answer is is3DSVer2 with threeDSServerTransId, the method URL and its packed data, and the order reads status 5', async () => {
    const { orderId, body, transId } = await firstStep(FRICTIONLESS_CARD);
    assert.deepEqual(Object.keys(body), ['errorCode', 'errorMessage', 'is3DSVer2', 'threeDSServerTransId', 'threeDSMethodURL', 'threeDSMethodDataPacked']);
    assert.equal(body.errorCode, '0');
    assert.equal(body['is3DSVer2'], true);
    assert.match(transId, UUID);
    assert.equal(body['threeDSMethodURL'], `${PUBLIC_URL}/3ds-method`);
    const methodData = JSON.parse(Buffer.from(String(body['threeDSMethodDataPacked']), 'base64url').toString('utf8')) as Record<string, string>;
    assert.equal(methodData['threeDSServerTransID'], transId);
    const status = await sandbox.status(orderId);
    assert.equal(status.orderStatus, 5);
    assert.equal(status.paymentAmountInfo?.paymentState, 'STARTED');
    assert.equal(status['ip'], BUYER.ip);
    assert.deepEqual(status['payerData'], { email: BUYER.email });
  });

  it('When the browser posts the 3DS Method, then a small page answers that may be framed, and a second post answers the same; unknown data is 400 and GET is 405', async () => {
    const { body } = await firstStep(FRICTIONLESS_CARD);
    for (let i = 0; i < 2; i += 1) {
      const page = await postForm(`${sandbox.baseUrl}/3ds-method`, { threeDSMethodData: String(body['threeDSMethodDataPacked']) });
      assert.equal(page.status, 200);
      assert.match(page.text, /3DS Method complete/);
      assert.equal(page.headers.get('x-frame-options'), null);
      assert.equal(page.headers.get('content-security-policy'), "default-src 'none'; style-src 'unsafe-inline'; form-action 'none'; frame-ancestors http: https:; base-uri 'none'");
      assert.ok(!/<script/i.test(page.text));
    }
    const unknown = Buffer.from(JSON.stringify({ threeDSServerTransID: '00000000-0000-4000-8000-000000000000' })).toString('base64url');
    for (const threeDSMethodData of [unknown, 'garbage', '']) {
      assert.equal((await postForm(`${sandbox.baseUrl}/3ds-method`, { threeDSMethodData })).status, 400, threeDSMethodData);
    }
    const get = await fetch(`${sandbox.baseUrl}/3ds-method`);
    assert.equal(get.status, 405);
    assert.equal(get.headers.get('allow'), 'POST');
  });

  it('When card 3238 repeats paymentorder.do with its threeDSServerTransId, then it is approved without a challenge: deposited, eci 05', async () => {
    const { orderId, transId, body } = await firstStep(FRICTIONLESS_CARD);
    await postForm(`${sandbox.baseUrl}/3ds-method`, { threeDSMethodData: String(body['threeDSMethodDataPacked']) });
    const repeat = await sandbox.pay(orderId, FRICTIONLESS_CARD, { ...BUYER, threeDSServerTransId: transId });
    assert.deepEqual(repeat.body, { errorCode: '0', errorMessage: 'Success', info: 'Your order is proceeded, redirecting...', redirect: `${RETURN_URL}?orderId=${orderId}` });
    const status = await sandbox.status(orderId);
    assert.equal(status.orderStatus, 2);
    assert.deepEqual(status.cardAuthInfo?.secureAuthInfo, { eci: '05' });
    assert.equal(status.paymentAmountInfo?.depositedAmount, 125500);
  });

  it('When card 3246 pays, then the first answer has no 3DS Method URL, and the repeat is declined with actionCode 151017', async () => {
    const { orderId, body, transId } = await firstStep(REFUSED_CARD);
    assert.deepEqual(Object.keys(body), ['errorCode', 'errorMessage', 'is3DSVer2', 'threeDSServerTransId']);
    const repeat = await sandbox.pay(orderId, REFUSED_CARD, { threeDSServerTransId: transId });
    assert.equal(codeOf(repeat.body), '0');
    const status = await sandbox.status(orderId);
    assert.equal(status.orderStatus, 6);
    assert.equal(status.actionCode, 151017);
    assert.equal(status.paymentAmountInfo?.paymentState, 'DECLINED');
  });

  it('When the repeat carries a wrong threeDSServerTransId or another card, then "5" and the order still awaits its repeat; a repeat after the end, "7"', async () => {
    const { orderId, transId } = await firstStep(FRICTIONLESS_CARD);
    const other = await firstStep(FRICTIONLESS_CARD);
    for (const fields of [{ threeDSServerTransId: other.transId }, { threeDSServerTransId: 'not-a-transaction' }]) {
      assert.deepEqual((await sandbox.pay(orderId, FRICTIONLESS_CARD, fields)).body, { errorCode: '5', errorMessage: 'threeDSServerTransId is invalid' });
    }
    assert.deepEqual((await sandbox.pay(orderId, '4242424242424242', { threeDSServerTransId: transId })).body, { errorCode: '5', errorMessage: '$PAN is invalid' });
    assert.equal((await sandbox.status(orderId)).orderStatus, 5);
    assert.equal(codeOf((await sandbox.pay(orderId, FRICTIONLESS_CARD, { threeDSServerTransId: transId })).body), '0');
    assert.deepEqual((await sandbox.pay(orderId, FRICTIONLESS_CARD, { threeDSServerTransId: transId })).body, { errorCode: '7', errorMessage: 'Wrong order state' });
    // And a card sent again without the transaction, on an order in 3-D Secure: "7".
    assert.equal(codeOf((await sandbox.pay(other.orderId, FRICTIONLESS_CARD)).body), '7');
    assert.equal((await sandbox.status(orderId)).orderStatus, 2);
  });

  it('When finish3dsVer2Payment.do is called before any challenge, with a wrong transaction, or for an unknown order, then "7", "5" or "6" and nothing is paid', async () => {
    const { orderId, transId } = await firstStep(FRICTIONLESS_CARD);
    assert.deepEqual((await sandbox.call('finish3dsVer2Payment.do', { mdOrder: orderId, threeDSServerTransId: transId })).body, { errorCode: '7', errorMessage: 'Wrong order state' });
    assert.equal(codeOf((await sandbox.call('finish3dsVer2Payment.do', { mdOrder: orderId, threeDSServerTransId: '00000000-0000-4000-8000-000000000000' })).body), '5');
    assert.equal(codeOf((await sandbox.call('finish3dsVer2Payment.do', { mdOrder: orderId })).body), '4');
    assert.equal(codeOf((await sandbox.call('finish3dsVer2Payment.do', { mdOrder: '00000000-0000-4000-8000-000000000000', threeDSServerTransId: transId })).body), '6');
    assert.equal((await sandbox.status(orderId)).orderStatus, 5);
  });

  it('When the buyer fields are malformed, then "5" and the order stays registered; without any, the payment goes on and threeDSVer2FinishUrl falls back to returnUrl', async () => {
    const { orderId } = await sandbox.register();
    for (const bad of [{ ip: 'not-an-ip' }, { ip: '1'.repeat(40) }, { email: 'no-at-sign' }, { phone: '1'.repeat(33) }, { threeDSVer2FinishUrl: 'javascript:alert(1)' }] as Record<string, string>[]) {
      assert.equal(codeOf((await sandbox.pay(orderId, FRICTIONLESS_CARD, bad)).body), '5', JSON.stringify(bad));
    }
    assert.equal((await sandbox.status(orderId)).orderStatus, 0);
    const bare = await sandbox.pay(orderId, FRICTIONLESS_CARD, { ip: '::ffff:127.0.0.1', phone: '+216 71 000 000' });
    assert.equal(bare.body['is3DSVer2'], true);
    assert.deepEqual((await sandbox.status(orderId))['payerData'], { phone: '+216 71 000 000' });
  });
});
