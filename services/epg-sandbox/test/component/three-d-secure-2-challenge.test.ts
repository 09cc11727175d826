/**
 * 3-D Secure 2 with a challenge (D30's card 3220): the 3DS Method, the
 * repeat answering acsUrl and packedCReq, the ACS page (posted creq only),
 * the cardholder's answer handed back as a posted cres, and the finish:
 * finish3dsVer2Payment.do, or, on a deployment without it
 * (SANDBOX_WITHOUT_FINISH_3DS_VER2), the gateway's own finish, which sends the
 * browser to returnUrl with a GET.
 */
import assert from 'node:assert/strict';
import { answerChallenge, decisionOf, postForm } from './acs-browser.js';
import { codeOf, read, RETURN_URL, startHarness, type Harness } from './sandbox-harness.js';

const CARD = '4000000000003220';
const PUBLIC_URL = 'https://sandbox.example.tn';
const FINISH_URL = 'https://merchant.example.tn/checkout/tok/3ds/pa_1';

/** A 3220 order through its 3DS Method and repeat, at its challenge. */
async function challenged(sandbox: Harness): Promise<{ orderId: string; transId: string; acsUrl: string; creq: string }> {
  const { orderId } = await sandbox.register();
  const first = await sandbox.pay(orderId, CARD, { ip: '197.15.2.40', email: 'amina@example.tn', threeDSVer2FinishUrl: FINISH_URL });
  const transId = String(first.body['threeDSServerTransId']);
  assert.equal(first.body['threeDSMethodURL'], `${PUBLIC_URL}/3ds-method`);
  await postForm(`${sandbox.baseUrl}/3ds-method`, { threeDSMethodData: String(first.body['threeDSMethodDataPacked']) });
  const repeat = await sandbox.pay(orderId, CARD, { threeDSServerTransId: transId, threeDSVer2FinishUrl: FINISH_URL });
  return { orderId, transId, acsUrl: String(repeat.body['acsUrl']), creq: String(repeat.body['packedCReq']) };
}

/** The ACS page, posted as the hosted page posts it (on the harness's own address). */
function acsPage(sandbox: Harness, creq: string) {
  return postForm(`${sandbox.baseUrl}/acs`, { creq });
}

describe('epg-sandbox: 3-D Secure 2 challenge', () => {
  let sandbox: Harness;

  before(async () => {
    sandbox = await startHarness({ SANDBOX_PUBLIC_URL: PUBLIC_URL });
  });
  after(async () => {
    await sandbox?.stop();
  });

  it('When card 3220 repeats after its 3DS Method, then the answer is a challenge: is3DSVer2, acsUrl and packedCReq naming the transaction; the order is still 5', async () => {
    const { orderId } = await sandbox.register();
    const first = await sandbox.pay(orderId, CARD, { threeDSVer2FinishUrl: FINISH_URL });
    const transId = String(first.body['threeDSServerTransId']);
    const repeat = await sandbox.pay(orderId, CARD, { threeDSServerTransId: transId });
    assert.deepEqual(Object.keys(repeat.body), ['errorCode', 'errorMessage', 'is3DSVer2', 'threeDSServerTransId', 'acsUrl', 'packedCReq']);
    assert.equal(repeat.body['acsUrl'], `${PUBLIC_URL}/acs`);
    const creq = JSON.parse(Buffer.from(String(repeat.body['packedCReq']), 'base64url').toString('utf8')) as Record<string, string>;
    assert.deepEqual([creq['messageType'], creq['threeDSServerTransID']], ['CReq', transId]);
    assert.equal((await sandbox.status(orderId)).orderStatus, 5);
  });

  it('When the browser posts the creq, then the page keeps D9\'s heading and buttons, names the protocol and whether the 3DS Method ran', async () => {
    const { creq } = await challenged(sandbox);
    const page = await acsPage(sandbox, creq);
    assert.equal(page.status, 200);
    assert.equal(page.headers.get('x-frame-options'), 'DENY');
    assert.match(page.text, /<h1>[^<]*3-D Secure[^<]*<\/h1>/);
    assert.ok(page.text.includes('<dd class="protocol">3-D Secure 2</dd>'));
    assert.ok(page.text.includes('<dd class="method">ran</dd>'));
    assert.ok(page.text.includes('400000**3220'));
    decisionOf(page.text);
    // Without the method: the page says so.
    const { orderId } = await sandbox.register();
    const first = await sandbox.pay(orderId, CARD);
    const repeat = await sandbox.pay(orderId, CARD, { threeDSServerTransId: String(first.body['threeDSServerTransId']) });
    assert.ok((await acsPage(sandbox, String(repeat.body['packedCReq']))).text.includes('<dd class="method">did not run</dd>'));
  });

  it('When the cardholder completes authentication, then cres goes to threeDSVer2FinishUrl by a posted form, and finish3dsVer2Payment.do deposits the order with eci 05', async () => {
    const { orderId, transId, creq } = await challenged(sandbox);
    const back = await answerChallenge(sandbox.baseUrl, (await acsPage(sandbox, creq)).text, 'Y');
    assert.equal(back.action, FINISH_URL);
    assert.deepEqual(Object.keys(back.fields), ['cres']);
    const cres = JSON.parse(Buffer.from(back.fields['cres'] ?? '', 'base64url').toString('utf8')) as Record<string, string>;
    assert.deepEqual([cres['messageType'], cres['threeDSServerTransID'], cres['transStatus']], ['CRes', transId, 'Y']);
    // Answered, not finished: the merchant's finish does that.
    assert.equal((await sandbox.status(orderId)).orderStatus, 5);
    const finished = await sandbox.call('finish3dsVer2Payment.do', { mdOrder: orderId, threeDSServerTransId: transId });
    assert.deepEqual(finished.body, { errorCode: '0', errorMessage: 'Success', redirect: `${RETURN_URL}?orderId=${orderId}` });
    const status = await sandbox.status(orderId);
    assert.equal(status.orderStatus, 2);
    assert.deepEqual(status.cardAuthInfo?.secureAuthInfo, { eci: '05' });
    // Finished once: again, "7" and nothing changes.
    assert.equal(codeOf((await sandbox.call('finish3dsVer2Payment.do', { mdOrder: orderId, threeDSServerTransId: transId })).body), '7');
  });

  it('When the cardholder fails authentication, then the finish declines the order with actionCode 2006; a second answer at the ACS keeps the first', async () => {
    const { orderId, transId, creq } = await challenged(sandbox);
    const page = (await acsPage(sandbox, creq)).text;
    const no = await answerChallenge(sandbox.baseUrl, page, 'N');
    const yesAfter = await answerChallenge(sandbox.baseUrl, page, 'Y');
    assert.deepEqual(yesAfter.fields, no.fields, 'the first answer stands');
    await sandbox.call('finish3dsVer2Payment.do', { mdOrder: orderId, threeDSServerTransId: transId });
    const status = await sandbox.status(orderId);
    assert.deepEqual([status.orderStatus, status.actionCode], [6, 2006]);
  });

  it('When a creq is forged, unknown, answered already, or opened by GET, then the ACS refuses it and nothing is paid', async () => {
    const { orderId, creq } = await challenged(sandbox);
    const other = Buffer.from(JSON.stringify({ threeDSServerTransID: '00000000-0000-4000-8000-000000000000', messageType: 'CReq' })).toString('base64url');
    for (const bad of [other, 'garbage', Buffer.from('{"messageType":"CRes"}').toString('base64url')]) {
      const page = await acsPage(sandbox, bad);
      assert.equal(page.status, 400, bad);
      assert.match(page.text, /authentication request is invalid/);
    }
    const get = await read(await fetch(`${sandbox.baseUrl}/acs?creq=${creq}`));
    assert.equal(get.status, 405);
    await answerChallenge(sandbox.baseUrl, (await acsPage(sandbox, creq)).text, 'Y');
    assert.equal((await acsPage(sandbox, creq)).status, 400, 'answered: no second page');
    assert.equal((await sandbox.status(orderId)).orderStatus, 5);
  });

  it('When the gateway\'s own finish is posted a cres on a deployment with finish3dsVer2Payment.do, then it finishes the order all the same: the merchant\'s finish then answers "7" and its status tells', async () => {
    const { orderId, transId, creq } = await challenged(sandbox);
    const back = await answerChallenge(sandbox.baseUrl, (await acsPage(sandbox, creq)).text, 'Y');
    const own = await postForm(`${sandbox.baseUrl}/payment/3ds2/finish`, back.fields);
    assert.equal(own.status, 303);
    assert.equal(codeOf((await sandbox.call('finish3dsVer2Payment.do', { mdOrder: orderId, threeDSServerTransId: transId })).body), '7');
    assert.equal((await sandbox.status(orderId)).orderStatus, 2);
  });
});

describe('epg-sandbox: a deployment without finish3dsVer2Payment.do', () => {
  let sandbox: Harness;

  before(async () => {
    sandbox = await startHarness({ SANDBOX_PUBLIC_URL: PUBLIC_URL, SANDBOX_WITHOUT_FINISH_3DS_VER2: 'true' });
  });
  after(async () => {
    await sandbox?.stop();
  });

  it('When finish3dsVer2Payment.do is called, then it answers HTTP 404, as an unknown call does', async () => {
    const res = await fetch(`${sandbox.baseUrl}/payment/rest/finish3dsVer2Payment.do`, { method: 'POST', body: new URLSearchParams({ userName: 'gateway-test', password: 'gateway-test-password', mdOrder: 'x', threeDSServerTransId: 'y' }) });
    assert.equal(res.status, 404);
    assert.equal(await res.text(), 'Not Found');
  });

  it('When the cardholder answers, then the ACS posts cres to the gateway\'s own finish, which finishes the order and sends the browser to returnUrl with a 303', async () => {
    const { orderId, creq } = await challenged(sandbox);
    const back = await answerChallenge(sandbox.baseUrl, (await acsPage(sandbox, creq)).text, 'Y');
    assert.equal(back.action, `${PUBLIC_URL}/payment/3ds2/finish`);
    const finished = await postForm(`${sandbox.baseUrl}/payment/3ds2/finish`, back.fields);
    assert.equal(finished.status, 303);
    assert.equal(finished.headers.get('location'), `${RETURN_URL}?orderId=${orderId}`);
    assert.equal((await sandbox.status(orderId)).orderStatus, 2);
  });

  it('When the cres is replayed, unknown or garbage, or the finish is opened by GET, then 400 (405) with a page saying so, and nothing more happens', async () => {
    const { orderId, creq } = await challenged(sandbox);
    const back = await answerChallenge(sandbox.baseUrl, (await acsPage(sandbox, creq)).text, 'N');
    assert.equal((await postForm(`${sandbox.baseUrl}/payment/3ds2/finish`, back.fields)).status, 303);
    assert.deepEqual([(await sandbox.status(orderId)).orderStatus, (await sandbox.status(orderId)).actionCode], [6, 2006]);
    const unknown = Buffer.from(JSON.stringify({ threeDSServerTransID: '00000000-0000-4000-8000-000000000000', messageType: 'CRes', transStatus: 'Y' })).toString('base64url');
    for (const cres of [back.fields['cres'] ?? '', unknown, 'garbage']) {
      const replay = await postForm(`${sandbox.baseUrl}/payment/3ds2/finish`, { cres });
      assert.equal(replay.status, 400, cres);
      assert.match(replay.text, /invalid or was already used/);
    }
    assert.equal((await fetch(`${sandbox.baseUrl}/payment/3ds2/finish`)).status, 405);
    assert.equal((await sandbox.status(orderId)).orderStatus, 6);
  });

  it('When a forged cres says Y for an order whose cardholder has not answered, then nothing is finished: the outcome is what the ACS recorded, never the message', async () => {
    const { orderId, transId } = await challenged(sandbox);
    const forged = Buffer.from(JSON.stringify({ threeDSServerTransID: transId, messageType: 'CRes', transStatus: 'Y' })).toString('base64url');
    assert.equal((await postForm(`${sandbox.baseUrl}/payment/3ds2/finish`, { cres: forged })).status, 400);
    assert.equal((await sandbox.status(orderId)).orderStatus, 5);
  });
});
