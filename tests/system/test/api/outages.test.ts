/**
 * D23: while the database or the service behind cannot do the work, the API
 * answers 500 internal-error with Retry-After (1-5 s) and a detail saying the
 * service is temporarily unavailable, in time; nothing half-done is left, and
 * the same request, asked again once the dependency is back, is done once.
 * (The failover test, tests/system/test/ha, kills the engines themselves.)
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { launchBrowser, sessionRequest, signInToDashboard, TestSystem, type ApiClient, type ApiResponse, type Merchant, type TestBrowser } from '@gateway/testkit';

const UNAVAILABLE = 'The service is temporarily unavailable; retry after the number of seconds in Retry-After.';
const PASSWORD = 'correct horse battery staple';

describe('The API while a dependency is out (D23)', function () {
  this.timeout(120_000);
  let system: TestSystem;
  let browser: TestBrowser;
  let merchant: Merchant;
  let api: ApiClient;

  before(async () => {
    system = await TestSystem.start({ env: { RPC_TIMEOUT_MS: '2000' } });
    browser = await launchBrowser();
    merchant = await system.newMerchant();
    api = system.api(merchant.testKey);
  });
  after(async () => {
    await browser?.close();
    await system?.shutdown();
  });

  function assertUnavailable(answer: ApiResponse): void {
    assert.equal(answer.status, 500, answer.text);
    assert.match(answer.headers.get('retry-after') ?? '', /^[1-5]$/);
    assert.match(String(answer.body['type']), /\/errors\/internal-error$/);
    assert.equal(answer.body['detail'], UNAVAILABLE);
    assert.doesNotMatch(answer.text, /sessions_away|relation|SELECT|INSERT/i);
  }

  it('when the session service cannot reach its table (a failover, a migration not yet run), then create answers 500 with Retry-After and makes nothing; asked again once it is back, it makes one session', async () => {
    const body = sessionRequest();
    const key = randomUUID();
    await system.db.query('ALTER TABLE session.sessions RENAME TO sessions_away');
    let refused: ApiResponse;
    try {
      refused = await api.post('/gateway/sessions/', body, { 'Idempotency-Key': key });
    } finally {
      await system.db.query('ALTER TABLE session.sessions_away RENAME TO sessions');
    }
    assertUnavailable(refused);
    const made = await api.post<{ id: string }>('/gateway/sessions/', body, { 'Idempotency-Key': key });
    assert.equal(made.status, 201, made.text);
    const again = await api.post<{ id: string }>('/gateway/sessions/', body, { 'Idempotency-Key': key });
    assert.equal(again.body.id, made.body.id);
    const rows = await system.db.query('SELECT 1 FROM session.sessions WHERE merchant_reference = $1', [body['merchant_reference']]);
    assert.equal(rows.length, 1);
  });

  it('when the service behind does not answer (stopped, its broker node lost), then the API answers 500 with Retry-After within its deadline, the hosted page and the dashboard say so with Retry-After too', async () => {
    const created = await api.post<{ checkout_url: string }>('/gateway/sessions/', sessionRequest());
    const dashboard = await signInToDashboard(browser, system.baseUrl, await system.dashboardUser(merchant.merchantId, 'owner', PASSWORD), PASSWORD);
    await system.stopService('session');
    try {
      const started = Date.now();
      const answer = await api.get('/gateway/sessions/list/?limit=1');
      assertUnavailable(answer);
      assert.ok(Date.now() - started < 5_000, `answered after ${Date.now() - started} ms`);

      const page = await fetch(created.body.checkout_url);
      assert.equal(page.status, 500);
      assert.match(page.headers.get('retry-after') ?? '', /^[1-5]$/);

      const payments = await dashboard.goto(`${system.baseUrl}/dashboard/payments`);
      assert.equal(payments?.status(), 503);
      assert.match((await payments?.headerValue('retry-after')) ?? '', /^[1-5]$/);
      assert.match(await dashboard.content(), /The service is busy or unreachable; try again in a moment\./);
    } finally {
      await system.restartService('session');
    }
    const listed = await api.get('/gateway/sessions/list/?limit=1');
    assert.equal(listed.status, 200, listed.text);
  });
});
