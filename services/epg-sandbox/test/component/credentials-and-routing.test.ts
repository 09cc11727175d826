/** What every call checks before it does anything: path, method, body, terminal credentials. */
import assert from 'node:assert/strict';
import { codeOf, read, startHarness, TERMINAL, type Harness } from './sandbox-harness.js';

describe('epg-sandbox: credentials and routing', () => {
  let sandbox: Harness;

  before(async () => {
    sandbox = await startHarness();
  });
  after(async () => {
    await sandbox?.stop();
  });

  it('When userName or password is missing, then every call answers HTTP 200 with errorCode "4"', async () => {
    for (const credentials of [{ userName: TERMINAL.userName }, { password: TERMINAL.password }, {}] as Record<string, string>[]) {
      const res = await sandbox.call('getOrderStatusExtended.do', { orderNumber: 'x' }, credentials);
      assert.equal(res.status, 200);
      assert.match(String(res.headers.get('content-type')), /^application\/json/);
      assert.equal(codeOf(res.body), '4');
      assert.equal(typeof res.body.errorMessage, 'string');
    }
  });

  it('When the password is wrong or the terminal unknown, then errorCode "5" Access denied', async () => {
    for (const credentials of [
      { userName: TERMINAL.userName, password: 'wrong' },
      { userName: 'nobody', password: TERMINAL.password },
    ]) {
      const res = await sandbox.call('register.do', { orderNumber: 'A1', amount: '1000', returnUrl: 'https://m.example/r' }, credentials);
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, { errorCode: '5', errorMessage: 'Access denied' });
    }
  });

  it('When a protocol path is called with GET, then 405 with Allow: POST', async () => {
    const res = await fetch(`${sandbox.baseUrl}/payment/rest/register.do?userName=a&password=b`);
    assert.equal(res.status, 405);
    assert.equal(res.headers.get('allow'), 'POST');
  });

  it('When the path is unknown, then 404', async () => {
    for (const path of ['/payment/rest/unknown.do', '/payment/rest/', '/payment/rest/register.do/extra', '/nowhere']) {
      const res = await fetch(`${sandbox.baseUrl}${path}`, { method: 'POST' });
      assert.equal(res.status, 404, path);
      await res.arrayBuffer();
    }
  });

  it('When the body is JSON rather than a form, then errorCode "4" even with valid credentials inside', async () => {
    const res = await read(
      await fetch(`${sandbox.baseUrl}/payment/rest/getOrderStatusExtended.do`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...TERMINAL, orderNumber: 'x' }),
      }),
    );
    assert.equal(res.status, 200);
    assert.equal(codeOf(res.body), '4');
  });

  it('When the form is larger than the limit, then 413 with errorCode "4"', async () => {
    const res = await sandbox.call('register.do', { description: 'x'.repeat(40_000) });
    assert.equal(res.status, 413);
    assert.equal(codeOf(res.body), '4');
  });

  it('When the form has more than 100 fields, then 413 with errorCode "4"; a charset other than UTF-8, errorCode "4"', async () => {
    const many = new URLSearchParams(TERMINAL);
    for (let i = 0; i < 100; i += 1) many.append(`f${i}`, 'x');
    const tooMany = await read(
      await fetch(`${sandbox.baseUrl}/payment/rest/getOrderStatusExtended.do`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: many.toString(),
      }),
    );
    assert.equal(tooMany.status, 413);
    assert.equal(codeOf(tooMany.body), '4');
    const latin = await read(
      await fetch(`${sandbox.baseUrl}/payment/rest/getOrderStatusExtended.do`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded; charset=iso-8859-1' },
        body: new URLSearchParams({ ...TERMINAL, orderNumber: 'x' }).toString(),
      }),
    );
    assert.equal(latin.status, 200);
    assert.equal(codeOf(latin.body), '4');
  });

  it('When calls are answered, then /metrics counts them under the route /payment/rest/:call, never the raw path', async () => {
    await sandbox.call('getOrderStatusExtended.do', { orderNumber: 'metrics-1' });
    const text = await (await fetch(`${sandbox.baseUrl}/metrics`)).text();
    assert.match(text, /gateway_http_requests_total\{[^}]*route="\/payment\/rest\/:call"[^}]*method="POST"[^}]*status="200"[^}]*\} [1-9]/);
    assert.doesNotMatch(text, /route="\/payment\/rest\/getOrderStatusExtended\.do"/);
  });

  it('When a field is given twice, then errorCode "5"', async () => {
    const body = new URLSearchParams({ ...TERMINAL, orderNumber: 'a' });
    body.append('orderNumber', 'b');
    const res = await read(
      await fetch(`${sandbox.baseUrl}/payment/rest/getOrderStatusExtended.do`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: body.toString(),
      }),
    );
    assert.equal(codeOf(res.body), '5');
  });

  it('When /healthz and /readyz are asked, then both answer 200', async () => {
    for (const path of ['/healthz', '/readyz']) {
      const res = await fetch(`${sandbox.baseUrl}${path}`);
      assert.equal(res.status, 200, path);
      await res.arrayBuffer();
    }
  });
});
