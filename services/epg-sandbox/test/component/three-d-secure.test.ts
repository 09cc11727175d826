/**
 * 3-D Secure 1 (D30's card 3063, a legacy issuer): the challenge reply, the
 * issuer page at /acs (posted), the answer handed back to TermUrl by a posted
 * form, finish3dsPayment.do.
 */
import assert from 'node:assert/strict';
import { answerChallenge, decisionOf, postForm } from './acs-browser.js';
import { codeOf, read, RETURN_URL, startHarness, type Harness } from './sandbox-harness.js';

const CHALLENGE_CARD = '4000000000003063';
const PUBLIC_URL = 'https://sandbox.example.tn';
const TERM_URL = 'https://merchant.example.tn/3ds-return?session=ps_1';

interface Challenge {
  orderId: string;
  paReq: string;
}

describe('epg-sandbox: 3-D Secure 1', () => {
  let sandbox: Harness;

  before(async () => {
    sandbox = await startHarness({ SANDBOX_PUBLIC_URL: PUBLIC_URL });
  });
  after(async () => {
    await sandbox?.stop();
  });

  async function challenge(amount = '125500'): Promise<Challenge> {
    const { orderId } = await sandbox.register({ amount });
    const res = await sandbox.pay(orderId, CHALLENGE_CARD);
    return { orderId, paReq: String(res.body['paReq']) };
  }

  /** The issuer page, posted as the hosted page posts it (acsUrl is the public one; the test reaches it on the harness's address). */
  function acsPage(paReq: string, md: string, termUrl = TERM_URL) {
    return postForm(`${sandbox.baseUrl}/acs`, { PaReq: paReq, MD: md, TermUrl: termUrl });
  }

  /** The paRes the buyer's browser would post back to TermUrl. */
  async function paResOf(paReq: string, orderId: string, result: 'Y' | 'N'): Promise<string> {
    const back = await answerChallenge(sandbox.baseUrl, (await acsPage(paReq, orderId)).text, result);
    return back.fields['PaRes'] ?? '';
  }

  it("When the challenge card pays, then it answers acsUrl, paReq and the gateway's own termUrl, and the order reads status 5 STARTED", async () => {
    const { orderId } = await sandbox.register();
    const res = await sandbox.pay(orderId, CHALLENGE_CARD);
    assert.deepEqual(Object.keys(res.body), ['errorCode', 'errorMessage', 'acsUrl', 'paReq', 'termUrl']);
    assert.equal(res.body.errorCode, '0');
    assert.equal(res.body['acsUrl'], `${PUBLIC_URL}/acs`);
    assert.match(String(res.body['paReq']), /^[A-Za-z0-9_-]{40,}$/);
    // As the real gateway does (ACQUIRER.md): its own finish3ds.do, which the merchant replaces by its TermUrl.
    assert.equal(res.body['termUrl'], `${PUBLIC_URL}/payment/rest/finish3ds.do`);
    const status = await sandbox.status(orderId);
    assert.equal(status.orderStatus, 5);
    assert.equal(status.paymentAmountInfo?.paymentState, 'STARTED');
    assert.equal(status.cardAuthInfo?.maskedPan, '400000**3063');
  });

  it('When the browser posts PaReq, MD and TermUrl to /acs, then the page has the 3-D Secure heading, the amount in TND, the masked card and one form posting the decision back to the ACS', async () => {
    const { orderId, paReq } = await challenge('125500');
    const page = await acsPage(paReq, orderId);
    assert.equal(page.status, 200);
    assert.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.equal(page.headers.get('cache-control'), 'no-store');
    assert.equal(page.headers.get('x-frame-options'), 'DENY');
    assert.equal(page.headers.get('referrer-policy'), 'no-referrer');
    assert.equal(page.headers.get('content-security-policy'), "default-src 'none'; style-src 'unsafe-inline'; form-action http: https:; frame-ancestors 'none'; base-uri 'none'");
    assert.match(page.text, /<h1>[^<]*3-D Secure[^<]*<\/h1>/);
    assert.ok(page.text.includes('125.500 TND'));
    assert.ok(page.text.includes('400000**3063'));
    assert.ok(page.text.includes('<dd class="protocol">3-D Secure 1</dd>'));
    assert.equal(page.text.match(/<form /g)?.length, 1);
    assert.ok(page.text.includes('<form method="post" action="/acs/answer">'));
    decisionOf(page.text);
    assert.ok(!/<script|src=|<link/i.test(page.text));
  });

  it('When the cardholder answers, then the page hands the buyer back with a form posting PaRes and MD to TermUrl, a visible Continue, and the page\'s own script alone', async () => {
    const { orderId, paReq } = await challenge();
    const page = await acsPage(paReq, orderId);
    const back = await postForm(`${sandbox.baseUrl}/acs/answer`, { decision: decisionOf(page.text), result: 'Y' });
    assert.equal(back.status, 200);
    assert.equal(back.headers.get('x-frame-options'), 'DENY');
    assert.equal(back.headers.get('content-security-policy'), "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; form-action http: https:; frame-ancestors 'none'; base-uri 'none'");
    assert.ok(back.text.includes('<form method="post" action="https://merchant.example.tn/3ds-return?session=ps_1">'));
    assert.ok(back.text.includes(`<input type="hidden" name="MD" value="${orderId}">`));
    assert.match(back.text, /<input type="hidden" name="PaRes" value="[A-Za-z0-9_-]+">/);
    assert.ok(back.text.includes('<button type="submit" id="continue">Continue</button>'));
    assert.deepEqual(back.text.match(/<script[^>]*>/g), ['<script src="/acs/continue.js">']);

    const script = await fetch(`${sandbox.baseUrl}/acs/continue.js`);
    assert.equal(script.status, 200);
    assert.match(String(script.headers.get('content-type')), /^text\/javascript/);
    assert.equal(script.headers.get('x-content-type-options'), 'nosniff');
    assert.match(await script.text(), /getElementById\('continue'\)\.click\(\)/);
  });

  it('When the page is opened by GET (the data in its query), then 405 with Allow: POST and a page saying it must be posted; amounts below one dinar keep their three decimals', async () => {
    const { orderId, paReq } = await challenge('5');
    const res = await read(await fetch(`${sandbox.baseUrl}/acs?${new URLSearchParams({ PaReq: paReq, MD: orderId, TermUrl: TERM_URL }).toString()}`));
    assert.equal(res.status, 405);
    assert.equal(res.headers.get('allow'), 'POST');
    assert.match(res.text, /must be posted/);
    assert.ok(!res.text.includes('name="decision"'));
    const posted = await acsPage(paReq, orderId);
    assert.equal(posted.status, 200);
    assert.ok(posted.text.includes('0.005 TND'));
    decisionOf(posted.text);
  });

  it('When MD or TermUrl carry markup, then the hand-back page escapes them', async () => {
    const { paReq } = await challenge();
    const page = await acsPage(paReq, '"><script>alert(1)</script>', 'https://merchant.example.tn/r?a="><b>');
    assert.equal(page.status, 200);
    assert.ok(!page.text.includes('<script>'));
    const back = await postForm(`${sandbox.baseUrl}/acs/answer`, { decision: decisionOf(page.text), result: 'N' });
    assert.ok(!back.text.includes('<script>alert'));
    assert.ok(!back.text.includes('"><b>'));
    assert.ok(back.text.includes('<input type="hidden" name="MD" value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;">'));
    assert.ok(back.text.includes('<form method="post" action="https://merchant.example.tn/r?a=&quot;&gt;&lt;b&gt;">'));
  });

  it('When PaReq is forged, TermUrl is not http(s), or the order is no longer authenticating, then 400 saying the request is invalid', async () => {
    const { orderId, paReq } = await challenge();
    const forged = `${paReq.slice(0, -2)}${paReq.endsWith('AA') ? 'BB' : 'AA'}`;
    for (const [req, termUrl] of [
      [forged, TERM_URL],
      ['not-a-token', TERM_URL],
      [paReq, 'javascript:alert(1)'],
      [paReq, '/relative'],
    ] as const) {
      const page = await acsPage(req, orderId, termUrl);
      assert.equal(page.status, 400, `${req} ${termUrl}`);
      assert.match(page.text, /authentication request is invalid/);
      assert.equal(page.headers.get('x-frame-options'), 'DENY');
    }
    const missing = await postForm(`${sandbox.baseUrl}/acs`, {});
    assert.equal(missing.status, 400);

    const no = await paResOf(paReq, orderId, 'N');
    await sandbox.call('finish3dsPayment.do', { mdOrder: orderId, paRes: no });
    assert.equal((await acsPage(paReq, orderId)).status, 400);
  });

  it('When a decision is forged, answered for an order no longer authenticating, or has no Y/N result, then 400 and nothing is handed back', async () => {
    const { orderId, paReq } = await challenge();
    const decision = decisionOf((await acsPage(paReq, orderId)).text);
    for (const fields of [{ decision: `${decision.slice(0, -2)}xx`, result: 'Y' }, { decision, result: 'maybe' }, { decision }, { result: 'Y' }] as Record<string, string>[]) {
      const res = await postForm(`${sandbox.baseUrl}/acs/answer`, fields);
      assert.equal(res.status, 400, JSON.stringify(fields));
      assert.ok(!res.text.includes('<form'), JSON.stringify(fields));
    }
    const get = await fetch(`${sandbox.baseUrl}/acs/answer`);
    assert.equal(get.status, 405);
    await sandbox.call('finish3dsPayment.do', { mdOrder: orderId, paRes: await paResOf(paReq, orderId, 'Y') });
    assert.equal((await postForm(`${sandbox.baseUrl}/acs/answer`, { decision, result: 'Y' })).status, 400);
  });

  it('When the Y paRes is posted back, then the order is deposited with eci 05 and the answer redirects to returnUrl', async () => {
    const { orderId, paReq } = await challenge();
    const yes = await paResOf(paReq, orderId, 'Y');
    const res = await sandbox.call('finish3dsPayment.do', { mdOrder: orderId, paRes: yes });
    assert.deepEqual(res.body, { errorCode: '0', errorMessage: 'Success', redirect: `${RETURN_URL}?orderId=${orderId}` });
    const status = await sandbox.status(orderId);
    assert.equal(status.orderStatus, 2);
    assert.equal(status.actionCode, 0);
    assert.deepEqual(status.cardAuthInfo?.secureAuthInfo, { eci: '05' });
    assert.match(String(status.cardAuthInfo?.approvalCode), /^[0-9]{6}$/);
    assert.equal(status.paymentAmountInfo?.depositedAmount, 125500);
  });

  it('When the N paRes is posted back, then the order is declined with actionCode 2006', async () => {
    const { orderId, paReq } = await challenge();
    const no = await paResOf(paReq, orderId, 'N');
    const res = await sandbox.call('finish3dsPayment.do', { mdOrder: orderId, paRes: no });
    assert.equal(codeOf(res.body), '0');
    const status = await sandbox.status(orderId);
    assert.equal(status.orderStatus, 6);
    assert.equal(status.actionCode, 2006);
    assert.equal(status['actionCodeDescription'], '3-D Secure authentication failed');
    assert.equal(status.paymentAmountInfo?.paymentState, 'DECLINED');
  });

  it("When the paRes is forged, is another order's, or is the paReq itself, then \"5\" and the order still awaits authentication; missing, then \"4\"", async () => {
    const first = await challenge();
    const second = await challenge();
    const yesOfSecond = await paResOf(second.paReq, second.orderId, 'Y');
    const tampered = `${yesOfSecond.slice(0, -3)}${yesOfSecond.endsWith('AAA') ? 'BBB' : 'AAA'}`;
    const forgedPayload = Buffer.concat([Buffer.from(`PaRes\n${first.orderId}\nY`), Buffer.alloc(32)]).toString('base64url');
    for (const paRes of [yesOfSecond, tampered, forgedPayload, first.paReq, 'garbage']) {
      const res = await sandbox.call('finish3dsPayment.do', { mdOrder: first.orderId, paRes });
      assert.equal(codeOf(res.body), '5', paRes);
    }
    assert.equal(codeOf((await sandbox.call('finish3dsPayment.do', { mdOrder: first.orderId })).body), '4');
    assert.equal((await sandbox.status(first.orderId)).orderStatus, 5);
  });

  it('When a challenge is finished twice, or an order that never started one is finished, then "7"; an unknown order, then "6"', async () => {
    const { orderId, paReq } = await challenge();
    const yes = await paResOf(paReq, orderId, 'Y');
    const no = await paResOf(paReq, orderId, 'N');
    assert.equal(codeOf((await sandbox.call('finish3dsPayment.do', { mdOrder: orderId, paRes: yes })).body), '0');
    const again = await sandbox.call('finish3dsPayment.do', { mdOrder: orderId, paRes: no });
    assert.deepEqual(again.body, { errorCode: '7', errorMessage: 'Wrong order state' });
    assert.equal((await sandbox.status(orderId)).orderStatus, 2);

    const plain = await sandbox.register();
    assert.equal(codeOf((await sandbox.call('finish3dsPayment.do', { mdOrder: plain.orderId, paRes: yes })).body), '7');
    assert.equal(codeOf((await sandbox.call('finish3dsPayment.do', { mdOrder: '00000000-0000-4000-8000-000000000000', paRes: yes })).body), '6');
  });
});
