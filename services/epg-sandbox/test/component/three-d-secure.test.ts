/** The 3-D Secure card: challenge reply, the issuer page at /acs, finish3dsPayment.do. */
import assert from 'node:assert/strict';
import { read, RETURN_URL, startHarness, type Harness } from './sandbox-harness.js';

const CHALLENGE_CARD = '4000000000003220';
const PUBLIC_URL = 'https://sandbox.example.tn';
const TERM_URL = 'https://merchant.example.tn/3ds-return?session=ps_1';

interface Challenge {
  orderId: string;
  paReq: string;
}

describe('epg-sandbox: 3-D Secure', () => {
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

  async function acsPage(paReq: string, md: string, termUrl = TERM_URL) {
    return read(await fetch(`${sandbox.baseUrl}/acs?${new URLSearchParams({ PaReq: paReq, MD: md, TermUrl: termUrl }).toString()}`));
  }

  /** The two paRes tokens of the page, by button text. */
  function paResTokens(html: string): { yes: string; no: string } {
    const yes = /<button type="submit" name="PaRes" value="([^"]+)">Complete authentication<\/button>/.exec(html)?.[1];
    const no = /<button type="submit" name="PaRes" value="([^"]+)">Fail authentication<\/button>/.exec(html)?.[1];
    assert.ok(yes && no, 'both buttons');
    return { yes, no };
  }

  it('When the challenge card pays, then it answers acsUrl, paReq and termUrl, and the order reads status 5 STARTED', async () => {
    const { orderId } = await sandbox.register();
    const res = await sandbox.pay(orderId, CHALLENGE_CARD);
    assert.deepEqual(Object.keys(res.body), ['errorCode', 'errorMessage', 'acsUrl', 'paReq', 'termUrl']);
    assert.equal(res.body.errorCode, '0');
    assert.equal(res.body['acsUrl'], `${PUBLIC_URL}/acs`);
    assert.match(String(res.body['paReq']), /^[A-Za-z0-9_-]{40,}$/);
    assert.equal(res.body['termUrl'], RETURN_URL);
    const status = await sandbox.status(orderId);
    assert.equal(status.orderStatus, 5);
    assert.equal(status.paymentAmountInfo?.paymentState, 'STARTED');
    assert.equal(status.cardAuthInfo?.maskedPan, '400000**3220');
  });

  it('When the browser opens /acs, then the page has the 3-D Secure heading, the amount in TND, the masked card and one form posting MD and either paRes to TermUrl', async () => {
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
    assert.ok(page.text.includes('400000**3220'));
    assert.equal(page.text.match(/<form /g)?.length, 1);
    assert.ok(page.text.includes(`<form method="post" action="https://merchant.example.tn/3ds-return?session=ps_1">`));
    assert.ok(page.text.includes(`<input type="hidden" name="MD" value="${orderId}">`));
    paResTokens(page.text);
    assert.ok(!/<script|src=|<link/i.test(page.text));
  });

  it('When the page is opened by POST with a form, then it is the same page; amounts below one dinar keep their three decimals', async () => {
    const { orderId, paReq } = await challenge('5');
    const res = await read(
      await fetch(`${sandbox.baseUrl}/acs`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ PaReq: paReq, MD: orderId, TermUrl: TERM_URL }).toString(),
      }),
    );
    assert.equal(res.status, 200);
    assert.ok(res.text.includes('0.005 TND'));
    paResTokens(res.text);
  });

  it('When MD or TermUrl carry markup, then it is escaped', async () => {
    const { paReq } = await challenge();
    const page = await acsPage(paReq, '"><script>alert(1)</script>', 'https://merchant.example.tn/r?a="><b>');
    assert.equal(page.status, 200);
    assert.ok(!page.text.includes('<script>'));
    assert.ok(!page.text.includes('"><b>'));
    assert.ok(page.text.includes('<input type="hidden" name="MD" value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;">'));
    assert.ok(page.text.includes('<form method="post" action="https://merchant.example.tn/r?a=&quot;&gt;&lt;b&gt;">'));
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
    const missing = await read(await fetch(`${sandbox.baseUrl}/acs`));
    assert.equal(missing.status, 400);

    const { no } = paResTokens((await acsPage(paReq, orderId)).text);
    await sandbox.call('finish3dsPayment.do', { mdOrder: orderId, paRes: no });
    assert.equal((await acsPage(paReq, orderId)).status, 400);
  });

  it('When the Y paRes is posted back, then the order is deposited with eci 05 and the answer redirects to returnUrl', async () => {
    const { orderId, paReq } = await challenge();
    const { yes } = paResTokens((await acsPage(paReq, orderId)).text);
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
    const { no } = paResTokens((await acsPage(paReq, orderId)).text);
    const res = await sandbox.call('finish3dsPayment.do', { mdOrder: orderId, paRes: no });
    assert.equal(res.body.errorCode, '0');
    const status = await sandbox.status(orderId);
    assert.equal(status.orderStatus, 6);
    assert.equal(status.actionCode, 2006);
    assert.equal(status['actionCodeDescription'], '3-D Secure authentication failed');
    assert.equal(status.paymentAmountInfo?.paymentState, 'DECLINED');
  });

  it("When the paRes is forged, is another order's, or is the paReq itself, then \"5\" and the order still awaits authentication; missing, then \"4\"", async () => {
    const first = await challenge();
    const second = await challenge();
    const { yes: yesOfSecond } = paResTokens((await acsPage(second.paReq, second.orderId)).text);
    const tampered = `${yesOfSecond.slice(0, -3)}${yesOfSecond.endsWith('AAA') ? 'BBB' : 'AAA'}`;
    const forgedPayload = Buffer.concat([Buffer.from(`PaRes\n${first.orderId}\nY`), Buffer.alloc(32)]).toString('base64url');
    for (const paRes of [yesOfSecond, tampered, forgedPayload, first.paReq, 'garbage']) {
      const res = await sandbox.call('finish3dsPayment.do', { mdOrder: first.orderId, paRes });
      assert.equal(res.body.errorCode, '5', paRes);
    }
    assert.equal((await sandbox.call('finish3dsPayment.do', { mdOrder: first.orderId })).body.errorCode, '4');
    assert.equal((await sandbox.status(first.orderId)).orderStatus, 5);
  });

  it('When a challenge is finished twice, or an order that never started one is finished, then "7"; an unknown order, then "6"', async () => {
    const { orderId, paReq } = await challenge();
    const { yes, no } = paResTokens((await acsPage(paReq, orderId)).text);
    assert.equal((await sandbox.call('finish3dsPayment.do', { mdOrder: orderId, paRes: yes })).body.errorCode, '0');
    const again = await sandbox.call('finish3dsPayment.do', { mdOrder: orderId, paRes: no });
    assert.deepEqual(again.body, { errorCode: '7', errorMessage: 'Wrong order state' });
    assert.equal((await sandbox.status(orderId)).orderStatus, 2);

    const plain = await sandbox.register();
    assert.equal((await sandbox.call('finish3dsPayment.do', { mdOrder: plain.orderId, paRes: yes })).body.errorCode, '7');
    assert.equal((await sandbox.call('finish3dsPayment.do', { mdOrder: '00000000-0000-4000-8000-000000000000', paRes: yes })).body.errorCode, '6');
  });
});
