/**
 * The buyer at the sandbox's Flouci page (WALLET.md "The sandbox", D26): the
 * page itself, the three phone behaviours, Cancel, the webhook and the
 * redirect back to the merchant, and a page that no longer takes an answer.
 */
import assert from 'node:assert/strict';
import { answerPage, FAIL_LINK, FlouciClient, openPage, payWith, SUCCESS_LINK } from './flouci-client.js';
import { startHarness, type Harness } from './sandbox-harness.js';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.js';

/** Where the buyer is sent: the link's own query kept, payment_id added. */
function backTo(link: string, paymentId: string): string {
  const url = new URL(link);
  url.searchParams.append('payment_id', paymentId);
  return url.toString();
}

describe('epg-sandbox: Flouci payment page', () => {
  const clock = { now: Date.parse('2030-03-01T09:00:00Z') };
  let sandbox: Harness;
  let flouci: FlouciClient;
  let hooks: WebhookReceiver;

  before(async () => {
    sandbox = await startHarness({}, { now: () => new Date(clock.now) });
    flouci = new FlouciClient(sandbox.baseUrl);
  });
  beforeEach(async () => {
    hooks = await startWebhookReceiver();
  });
  afterEach(async () => {
    await hooks?.close();
  });
  after(async () => {
    await sandbox?.stop();
  });

  it('When the buyer opens the link, then the page has a heading with Flouci, the amount, a Phone number field, Confirm payment and Cancel, and no script or outside resource', async () => {
    const { page, paymentId } = await flouci.newPayment({ amount: 125500 });
    const res = await openPage(page);
    assert.equal(res.status, 200);
    assert.match(String(res.headers.get('content-type')), /^text\/html; charset=utf-8/);
    assert.match(res.text, /<h1>[^<]*Flouci[^<]*<\/h1>/);
    assert.ok(res.text.includes('125.500 TND'));
    assert.ok(res.text.includes('<label for="phone">Phone number</label>'));
    assert.match(res.text, /<input id="phone" name="phone" type="tel"[^>]*>/);
    assert.ok(res.text.includes(`<form method="post" action="/flouci/pay/${paymentId}">`));
    assert.ok(res.text.includes('<button type="submit" name="action" value="confirm">Confirm payment</button>'));
    assert.ok(res.text.includes('<button type="submit" name="action" value="cancel" formnovalidate>Cancel</button>'));
    assert.ok(!/<script|<link|<img|<iframe|src=/i.test(res.text));
    assert.equal(res.headers.get('content-security-policy'), "default-src 'none'; style-src 'unsafe-inline'; form-action http: https:; frame-ancestors 'none'; base-uri 'none'");
    assert.equal(res.headers.get('x-frame-options'), 'DENY');
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
  });

  it('When the buyer pays with any other 8-digit phone, then the webhook hears SUCCESS, the buyer goes to success_link with payment_id, and verify says SUCCESS with only the phone\'s last two digits', async () => {
    const { page, paymentId } = await flouci.newPayment({ webhook: hooks.url, developer_tracking_id: 'att-pay' });
    const res = await payWith(page, '98765432');
    assert.equal(res.status, 303);
    assert.equal(res.headers.get('location'), backTo(SUCCESS_LINK, paymentId));
    assert.equal(res.headers.get('cache-control'), 'no-store');
    const [hook] = await hooks.next();
    assert.deepEqual(hook, { path: '/hooks/flouci?token=secret-hook-token', contentType: 'application/json', body: { payment_id: paymentId, status: 'SUCCESS' } });
    const verify = await flouci.verify(paymentId);
    assert.deepEqual(verify.body.result, { type: 'wallet', amount: 125500, status: 'SUCCESS', details: { phone_number: '******32', pre_auth: false }, developer_tracking_id: 'att-pay' });
    assert.ok(!verify.text.includes('98765432'));
  });

  it('When the buyer pays with 20000002, then the payment is declined for insufficient balance: FAILURE, the webhook hears it, the buyer goes to fail_link', async () => {
    const { page, paymentId } = await flouci.newPayment({ webhook: hooks.url });
    const res = await payWith(page, '20000002');
    assert.equal(res.status, 303);
    assert.equal(res.headers.get('location'), backTo(FAIL_LINK, paymentId));
    assert.deepEqual((await hooks.next())[0]?.body, { payment_id: paymentId, status: 'FAILURE' });
    const verify = await flouci.verify(paymentId);
    assert.equal(verify.body.result?.['status'], 'FAILURE');
    assert.deepEqual(verify.body.result?.details, { phone_number: '******02', reason: 'insufficient_balance', pre_auth: false });
  });

  it('When the buyer pays with 20000003, then the payment stays PENDING until session_timeout_secs after it was generated, and then reads EXPIRED', async () => {
    const { page, paymentId } = await flouci.newPayment({ webhook: hooks.url, session_timeout_secs: 300 });
    clock.now += 10_000;
    const res = await payWith(page, '20000003');
    assert.equal(res.status, 303);
    assert.equal(res.headers.get('location'), backTo(SUCCESS_LINK, paymentId), 'not failed: the merchant verifies');
    assert.deepEqual((await hooks.next())[0]?.body, { payment_id: paymentId, status: 'PENDING' });
    assert.equal(await flouci.statusOf(paymentId), 'PENDING');
    assert.equal((await openPage(page)).status, 410, 'answered: the page takes no second answer');
    clock.now += 290_000 - 1;
    assert.equal(await flouci.statusOf(paymentId), 'PENDING');
    clock.now += 1;
    const verify = await flouci.verify(paymentId);
    assert.equal(verify.body.result?.['status'], 'EXPIRED');
    assert.deepEqual(verify.body.result?.details, { phone_number: '******03', reason: 'session_expired', pre_auth: false });
    assert.equal(hooks.received.length, 1, 'expiry posts nothing');
  });

  it('When nobody answers before the timeout, then the payment is EXPIRED and its page answers 410', async () => {
    const { page, paymentId } = await flouci.newPayment({ session_timeout_secs: 60 });
    clock.now += 60_000;
    assert.equal(await flouci.statusOf(paymentId), 'EXPIRED');
    const res = await openPage(page);
    assert.equal(res.status, 410);
    assert.match(res.text, /no longer awaiting you/);
    const cancel = await fetch(page, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'action=cancel' });
    assert.equal(cancel.status, 410);
    await cancel.arrayBuffer();
    assert.equal(await flouci.statusOf(paymentId), 'EXPIRED');
  });

  it('When the buyer presses Cancel, then the payment is a FAILURE, the webhook hears it and the buyer goes to fail_link', async () => {
    const { page, paymentId } = await flouci.newPayment({ webhook: hooks.url });
    const res = await answerPage(page, { action: 'cancel' });
    assert.equal(res.status, 303);
    assert.equal(res.headers.get('location'), backTo(FAIL_LINK, paymentId));
    assert.deepEqual((await hooks.next())[0]?.body, { payment_id: paymentId, status: 'FAILURE' });
    const verify = await flouci.verify(paymentId);
    assert.equal(verify.body.result?.['status'], 'FAILURE');
    assert.deepEqual(verify.body.result?.details, { reason: 'canceled_by_buyer', pre_auth: false });
  });

  it('When the phone is not 8 digits, or no button is named, then the page is shown again with an error and the payment is untouched', async () => {
    const { page, paymentId } = await flouci.newPayment({ webhook: hooks.url });
    for (const fields of [{ phone: '2000000', action: 'confirm' }, { phone: '200000021', action: 'confirm' }, { phone: '2000000a', action: 'confirm' }, { action: 'confirm' }, { phone: '98765432' }, { phone: '98765432', action: 'steal' }]) {
      const res = await answerPage(page, fields);
      assert.equal(res.status, 400, JSON.stringify(fields));
      assert.match(res.text, /<p class="error" id="phone-error" role="alert">[^<]+<\/p>/);
      assert.ok(res.text.includes('<label for="phone">Phone number</label>'));
      assert.ok(res.text.includes('Confirm payment'));
    }
    assert.equal(await flouci.statusOf(paymentId), 'PENDING');
    assert.equal(hooks.received.length, 0);
    assert.equal((await payWith(page, ' 98765432 ')).status, 303, 'surrounding spaces are not part of the phone');
  });

  it('When a payment was answered, then its page answers 410 to a GET and to a second answer, and its status stays', async () => {
    const { page, paymentId } = await flouci.newPayment();
    await payWith(page, '98765432');
    assert.equal((await openPage(page)).status, 410);
    const again = await fetch(page, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'phone=20000002&action=confirm' });
    assert.equal(again.status, 410);
    assert.match(String(again.headers.get('content-type')), /^text\/html/);
    await again.arrayBuffer();
    assert.equal(await flouci.statusOf(paymentId), 'SUCCESS');
  });

  it('When the page of an unknown payment is asked, then 404; another method, 405', async () => {
    const unknown = await openPage(`${sandbox.baseUrl}/flouci/pay/AAAAAAAAAAAAAAAAAAAAAA`);
    assert.equal(unknown.status, 404);
    assert.match(unknown.text, /unknown/);
    const { page } = await flouci.newPayment();
    const put = await fetch(page, { method: 'PUT' });
    assert.equal(put.status, 405);
    assert.equal(put.headers.get('allow'), 'GET, POST');
    await put.arrayBuffer();
  });

  it('When a payment has no webhook, then the buyer is sent back all the same', async () => {
    const { page, paymentId } = await flouci.newPayment();
    const res = await payWith(page, '55123456');
    assert.equal(res.headers.get('location'), backTo(SUCCESS_LINK, paymentId));
  });
});

describe('epg-sandbox: Flouci webhook delivery', () => {
  let sandbox: Harness;
  let flouci: FlouciClient;

  before(async () => {
    sandbox = await startHarness();
    flouci = new FlouciClient(sandbox.baseUrl);
  });
  after(async () => {
    await sandbox?.stop();
  });

  it('When the webhook never answers, then the buyer is redirected at once all the same', async () => {
    const hanging = await startWebhookReceiver(() => 'hang');
    try {
      const { page } = await flouci.newPayment({ webhook: hanging.url });
      const started = Date.now();
      const res = await payWith(page, '98765432');
      assert.equal(res.status, 303);
      assert.ok(Date.now() - started < 1_000, `the buyer waited ${Date.now() - started} ms`);
      await hanging.next();
    } finally {
      await hanging.close();
    }
  });

  it('When the webhook refuses or cannot be reached, then the buyer is redirected and the failure is only logged, with its origin but not its path', async () => {
    const refusing = await startWebhookReceiver(() => 500);
    const closed = await startWebhookReceiver();
    await closed.close();
    try {
      const refused = await flouci.newPayment({ webhook: refusing.url });
      assert.equal((await payWith(refused.page, '98765432')).status, 303);
      await refusing.next();
      const unreachable = await flouci.newPayment({ webhook: closed.url });
      assert.equal((await payWith(unreachable.page, '98765432')).status, 303);
      const deadline = Date.now() + 3_000;
      const byPayment = () => new Map(sandbox.logs.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line['call'] === 'flouci-webhook').map((line) => [line['paymentId'], line]));
      while (!(byPayment().has(refused.paymentId) && byPayment().has(unreachable.paymentId)) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      assert.deepEqual([byPayment().get(refused.paymentId)?.['msg'], byPayment().get(refused.paymentId)?.['status']], ['webhook refused', 500]);
      assert.deepEqual([byPayment().get(unreachable.paymentId)?.['msg'], byPayment().get(unreachable.paymentId)?.['reason']], ['webhook not delivered', 'ECONNREFUSED']);
      assert.equal(byPayment().get(refused.paymentId)?.['webhookOrigin'], new URL(refusing.url).origin);
      assert.ok(!sandbox.logs.join('\n').includes('secret-hook-token'));
    } finally {
      await refusing.close();
    }
  });
});
