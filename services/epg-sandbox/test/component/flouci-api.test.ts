/** Flouci's API at the sandbox (WALLET.md): generate_payment, verify_payment, who may call them, and what a refusal looks like. */
import assert from 'node:assert/strict';
import { bearer, FAIL_LINK, FlouciClient, SUCCESS_LINK } from './flouci-client.js';
import { FLOUCI_APP, OTHER_FLOUCI_APP, startHarness, type Harness } from './sandbox-harness.js';

describe('epg-sandbox: Flouci API', () => {
  let sandbox: Harness;
  let flouci: FlouciClient;

  before(async () => {
    sandbox = await startHarness();
    flouci = new FlouciClient(sandbox.baseUrl);
  });
  after(async () => {
    await sandbox?.stop();
  });

  it('When a payment is generated, then the answer is {result: {success, payment_id, link, developer_tracking_id}, code: 0} and link is its page at the sandbox', async () => {
    const reply = await flouci.generate({ amount: 40300, developer_tracking_id: 'att_123', webhook: 'https://merchant.example.tn/hook', session_timeout_secs: 600, pre_auth: false });
    assert.equal(reply.status, 200);
    assert.match(String(reply.headers.get('content-type')), /^application\/json/);
    const result = reply.body.result ?? {};
    assert.deepEqual(Object.keys(result), ['success', 'payment_id', 'link', 'developer_tracking_id']);
    assert.equal(reply.body.success, true);
    assert.equal(reply.body.code, 0);
    assert.equal(result['success'], true);
    assert.match(String(result['payment_id']), /^[A-Za-z0-9_-]{22}$/);
    assert.equal(result['link'], `http://localhost:8086/flouci/pay/${String(result['payment_id'])}`);
    assert.equal(result['developer_tracking_id'], 'att_123');
  });

  it('When two payments are generated, even with the same developer_tracking_id, then each has an id of its own', async () => {
    const first = await flouci.newPayment({ developer_tracking_id: 'same' });
    const second = await flouci.newPayment({ developer_tracking_id: 'same' });
    assert.notEqual(first.paymentId, second.paymentId);
  });

  it('When a new payment is verified, then it is PENDING, of type wallet, with its amount in millimes, its developer_tracking_id and small details', async () => {
    const { paymentId } = await flouci.newPayment({ amount: '125500', developer_tracking_id: 'att_verify' });
    const reply = await flouci.verify(paymentId);
    assert.equal(reply.status, 200);
    assert.deepEqual(reply.body, {
      success: true,
      result: { type: 'wallet', amount: 125500, status: 'PENDING', details: { pre_auth: false }, developer_tracking_id: 'att_verify' },
      code: 0,
    });
  });

  it('When generate_payment is given a bad field, then success false with a message naming it, HTTP 200, and no payment is made', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ amount: undefined }, 'amount'],
      [{ amount: 0 }, 'amount'],
      [{ amount: -1000 }, 'amount'],
      [{ amount: 12.5 }, 'amount'],
      [{ amount: '12.500' }, 'amount'],
      [{ amount: '1e3' }, 'amount'],
      [{ amount: 1_000_000_000 }, 'amount'],
      [{ amount: true }, 'amount'],
      [{ developer_tracking_id: undefined }, 'developer_tracking_id'],
      [{ developer_tracking_id: '' }, 'developer_tracking_id'],
      [{ developer_tracking_id: 42 }, 'developer_tracking_id'],
      [{ success_link: undefined }, 'success_link'],
      [{ success_link: '/relative/ok' }, 'success_link'],
      [{ success_link: 'javascript:alert(1)' }, 'success_link'],
      [{ fail_link: 'ftp://merchant.example.tn/ko' }, 'fail_link'],
      [{ fail_link: undefined }, 'fail_link'],
      [{ webhook: 'not a url' }, 'webhook'],
      [{ webhook: 7 }, 'webhook'],
      [{ session_timeout_secs: 0 }, 'session_timeout_secs'],
      [{ session_timeout_secs: 1.5 }, 'session_timeout_secs'],
      [{ session_timeout_secs: 'soon' }, 'session_timeout_secs'],
      [{ pre_auth: 'true' }, 'pre_auth'],
      [{ accept_card: 1 }, 'accept_card'],
    ];
    for (const [fields, name] of cases) {
      const reply = await flouci.generate(fields);
      assert.equal(reply.status, 200, JSON.stringify(fields));
      assert.equal(reply.body.success, false, JSON.stringify(fields));
      assert.equal(reply.body.result, undefined);
      assert.notEqual(reply.body.code, 0);
      assert.ok(reply.body.message?.startsWith(`${name} `), `${JSON.stringify(fields)}: ${reply.body.message}`);
    }
  });

  it('When amounts and the timeout come as integer strings, then they are taken; session_timeout_secs defaults to 1200', async () => {
    const clock = { now: Date.parse('2030-01-01T10:00:00Z') };
    const timed = await startHarness({}, { now: () => new Date(clock.now) });
    try {
      const client = new FlouciClient(timed.baseUrl);
      const byDefault = await client.newPayment({ amount: '1000' });
      const given = await client.newPayment({ session_timeout_secs: '60' });
      clock.now += 60_000;
      assert.equal(await client.statusOf(given.paymentId), 'EXPIRED');
      assert.equal(await client.statusOf(byDefault.paymentId), 'PENDING');
      clock.now += 1_140_000 - 1;
      assert.equal(await client.statusOf(byDefault.paymentId), 'PENDING');
      clock.now += 1;
      assert.equal(await client.statusOf(byDefault.paymentId), 'EXPIRED');
    } finally {
      await timed.stop();
    }
  });

  it('When the Authorization header is missing, malformed or wrong, then every call answers HTTP 401 with success false, and nothing is made', async () => {
    const { paymentId } = await flouci.newPayment();
    const wrong = [
      null,
      '',
      `${FLOUCI_APP.publicKey}:${FLOUCI_APP.privateKey}`,
      `Basic ${Buffer.from(`${FLOUCI_APP.publicKey}:${FLOUCI_APP.privateKey}`).toString('base64')}`,
      `Bearer ${FLOUCI_APP.publicKey}`,
      `Bearer ${FLOUCI_APP.publicKey}:`,
      `Bearer ${FLOUCI_APP.publicKey}:wrong-private-key`,
      `Bearer ${FLOUCI_APP.publicKey}:${OTHER_FLOUCI_APP.privateKey}`,
      `Bearer unknown-public:${FLOUCI_APP.privateKey}`,
    ];
    for (const authorization of wrong) {
      const replies = [
        await flouci.call('POST', 'generate_payment', { amount: 1000, developer_tracking_id: 'x', success_link: SUCCESS_LINK, fail_link: FAIL_LINK }, authorization),
        await flouci.call('GET', `verify_payment/${paymentId}`, undefined, authorization),
        await flouci.call('POST', 'confirm_payment', { payment_id: paymentId }, authorization),
        await flouci.call('POST', 'cancel_payment', { payment_id: paymentId }, authorization),
        await flouci.call('POST', 'refund_payment', { payment_id: paymentId }, authorization),
      ];
      for (const reply of replies) {
        assert.equal(reply.status, 401, String(authorization));
        assert.equal(reply.headers.get('www-authenticate'), 'Bearer');
        assert.equal(reply.body.success, false);
        assert.equal(typeof reply.body.message, 'string');
        assert.equal(reply.body.result, undefined);
      }
    }
    assert.equal(await flouci.statusOf(paymentId), 'PENDING');
  });

  it('When the scheme is written in another case and the private key holds a colon, then the application is known', async () => {
    const reply = await flouci.call('GET', 'verify_payment/unknown-id', undefined, `bearer ${FLOUCI_APP.publicKey}:${FLOUCI_APP.privateKey}`);
    assert.equal(reply.status, 200);
    assert.deepEqual(reply.body, { success: false, message: 'Payment not found', code: 1 });
    assert.match(FLOUCI_APP.privateKey, /:/);
    assert.equal(bearer(FLOUCI_APP), `Bearer ${FLOUCI_APP.publicKey}:${FLOUCI_APP.privateKey}`);
  });

  it("When another application asks for a payment, then it is unknown to it: verify, confirm, cancel and refund answer Payment not found and change nothing", async () => {
    const other = flouci.as(OTHER_FLOUCI_APP);
    const { paymentId } = await flouci.newPayment({ pre_auth: true });
    for (const reply of [await other.verify(paymentId), await other.confirm(paymentId), await other.cancel(paymentId), await other.refund(paymentId)]) {
      assert.equal(reply.status, 200);
      assert.deepEqual(reply.body, { success: false, message: 'Payment not found', code: 1 });
    }
    assert.equal(await flouci.statusOf(paymentId), 'PENDING');
    const own = await other.newPayment();
    assert.equal(await other.statusOf(own.paymentId), 'PENDING');
    assert.equal((await flouci.verify(own.paymentId)).body.message, 'Payment not found');
  });

  it('When a call names no payment_id or an unknown one, then success false', async () => {
    for (const path of ['confirm_payment', 'cancel_payment', 'refund_payment']) {
      const missing = await flouci.call('POST', path, {});
      assert.deepEqual([missing.status, missing.body.success, missing.body.message], [200, false, 'payment_id is required'], path);
      const unknown = await flouci.call('POST', path, { payment_id: 'no-such-payment' });
      assert.deepEqual([unknown.status, unknown.body.success, unknown.body.message], [200, false, 'Payment not found'], path);
    }
  });

  it('When the body is not a JSON object (another content type, malformed, an array), then HTTP 400 with success false', async () => {
    const post = (body: string, contentType: string) =>
      fetch(`${sandbox.baseUrl}/api/v2/generate_payment`, { method: 'POST', headers: { authorization: bearer(FLOUCI_APP), 'content-type': contentType }, body });
    for (const [body, contentType] of [
      ['amount=1000', 'application/x-www-form-urlencoded'],
      ['{"amount": 1000', 'application/json'],
      ['[1, 2]', 'application/json'],
      ['"text"', 'application/json'],
    ] as const) {
      const res = await post(body, contentType);
      assert.equal(res.status, 400, body);
      const answer = (await res.json()) as { success: boolean; message: string };
      assert.equal(answer.success, false);
      assert.match(answer.message, /JSON object/);
    }
    const large = await post(JSON.stringify({ developer_tracking_id: 'x'.repeat(40_000) }), 'application/json');
    assert.equal(large.status, 413);
    assert.equal(((await large.json()) as { success: boolean }).success, false);
  });

  it('When a call is made with another method, then 405 with Allow; an unknown call, 404', async () => {
    for (const [method, path, allow] of [
      ['GET', 'generate_payment', 'POST'],
      ['POST', 'verify_payment/abc', 'GET'],
      ['GET', 'confirm_payment', 'POST'],
      ['DELETE', 'cancel_payment', 'POST'],
      ['PUT', 'refund_payment', 'POST'],
    ] as const) {
      const res = await fetch(`${sandbox.baseUrl}/api/v2/${path}`, { method, headers: { authorization: bearer(FLOUCI_APP) } });
      assert.equal(res.status, 405, path);
      assert.equal(res.headers.get('allow'), allow);
      await res.arrayBuffer();
    }
    for (const path of ['/api/v2/unknown_call', '/api/v2/verify_payment', '/api/v2/verify_payment/a/b', '/api/v1/generate_payment']) {
      const res = await fetch(`${sandbox.baseUrl}${path}`, { method: 'POST', headers: { authorization: bearer(FLOUCI_APP) } });
      assert.equal(res.status, 404, path);
      await res.arrayBuffer();
    }
  });

  it('When calls are answered, then /metrics counts verify_payment under its route pattern, never with a payment id', async () => {
    const { paymentId } = await flouci.newPayment();
    await flouci.verify(paymentId);
    const text = await (await fetch(`${sandbox.baseUrl}/metrics`)).text();
    assert.match(text, /gateway_http_requests_total\{[^}]*route="\/api\/v2\/verify_payment\/:payment_id"[^}]*method="GET"[^}]*status="200"[^}]*\} [1-9]/);
    assert.ok(!text.includes(paymentId));
  });
});
