/**
 * The operations console (D15) in a whole running system, driven in a browser
 * through the gateway as operators reach it: each action is the operator
 * command gateway-admin sends, its effect read back on the page and at the
 * owning service (the API, the refund queue, the audit log). Then what must
 * not work: a merchant's dashboard session at the console, a change without
 * the session's CSRF token, markup in a merchant's name.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import type { RefundResult } from '@gateway/contracts';
import { launchBrowser, payOnPage, pollUntil, sessionRequest, TestSystem, type Merchant, type TestBrowser } from '@gateway/testkit';

const PASSWORD = 'a long operator passphrase';
/** The commands that only read: the services record them in the audit log too, beside the changes. */
const READS = /\.(get|list|list_manual|show)$/;
const HOSTILE_NAME = '<script>alert(1)</script><img src=x onerror=alert(2)>';

describe('Operations console, in a browser', function () {
  this.timeout(240_000);
  let system: TestSystem;
  let browser: TestBrowser;
  let page: Page;
  /** What window.alert/confirm asked: every dialog is accepted, and an alert would show markup ran. */
  const dialogs: string[] = [];
  const operatorEmail = `ops-${randomBytes(4).toString('hex')}@example.com`;

  before(async () => {
    [system, browser] = await Promise.all([TestSystem.start({ readyTimeoutMs: 90_000 }), launchBrowser()]);
    await system.admin(['operator', 'create', '--email', operatorEmail, '--password', PASSWORD]);
    page = await browser.newPage();
    page.on('dialog', (dialog) => {
      dialogs.push(`${dialog.type()}: ${dialog.message()}`);
      void dialog.accept();
    });
    await page.goto(ops('merchants'));
    await page.getByLabel('Email').fill(operatorEmail);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Merchants' }).waitFor();
  });
  after(async () => {
    await browser?.close();
    await system?.shutdown();
  });

  const ops = (path: string) => `${system.opsUrl}${path}`;
  const text = async (selector: string) => ((await page.locator(selector).first().textContent()) ?? '').replace(/\s+/g, ' ').trim();

  /** Opens the merchant's page from the list, searched by its id, as an operator would. */
  async function openMerchant(merchantId: string): Promise<void> {
    await page.goto(ops('merchants'));
    await page.getByLabel('Search').fill(merchantId);
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.locator(`a[href="/ops/merchants/${merchantId}"]`).click();
    await page.waitForURL(`**/ops/merchants/${merchantId}`);
  }

  async function listSessions(key: string): Promise<number> {
    return (await system.api(key).get('/gateway/sessions/list/')).status;
  }

  it('When /ops/ is opened, then it goes to Merchants, with the console sections and the operator named', async () => {
    await page.goto(ops(''));
    assert.match(page.url(), /\/ops\/merchants$/);
    assert.equal(await text('header .brand'), 'Operations console');
    const sections = await page.locator('nav.sections a').allTextContents();
    assert.deepEqual(sections, ['Merchants', 'Manual refunds', 'Audit log', 'Security']);
    assert.ok((await text('header')).includes(operatorEmail));
    assert.equal(await page.locator('select[name="mode"]').count(), 0, 'the console has no test/live switch');
  });

  it("When an operator approves a fresh merchant's KYB, then its live key is shown once, live mode appears, and the key works at the API", async () => {
    const merchant = await system.newMerchant();
    await openMerchant(merchant.merchantId);
    assert.equal(await text('[data-field="kyb"]'), 'Pending');
    await page.getByRole('button', { name: 'Approve KYB' }).click();
    const liveKey = await text('#shown-secret');
    assert.match(liveKey, /^sk_live_/);
    assert.ok((await text('main')).includes('hand it to the merchant over a safe channel'));
    assert.match(await text('[data-field="kyb"]'), /^Approved \d{4}-\d\d-\d\d/);
    assert.equal(await text('[data-field="modes"]'), 'Test mode, Live mode');
    assert.equal(await listSessions(liveKey), 200);

    // Shown once: the merchant's page never shows it again, and there is nothing left to approve.
    await page.goto(ops(`merchants/${merchant.merchantId}`));
    assert.equal(await page.locator('#shown-secret').count(), 0);
    assert.ok(!(await page.content()).includes(liveKey));
    assert.equal(await page.getByRole('button', { name: 'Approve KYB' }).count(), 0);
    await page.goto(ops(`audit-log?merchant=${merchant.merchantId}`));
    assert.ok((await auditRows()).some((e) => e.action === 'merchant.approve_kyb'));
    assert.ok(!(await page.content()).includes(liveKey), 'the live key is in the audit log');
  });

  it('When an operator suspends a merchant, then its test key is refused at the API (403) until they reactivate it', async () => {
    const merchant = await system.newMerchant();
    assert.equal(await listSessions(merchant.testKey), 200);
    await openMerchant(merchant.merchantId);
    await page.getByRole('button', { name: 'Suspend' }).click();
    await page.getByRole('button', { name: 'Reactivate' }).waitFor();
    assert.equal(await text('[data-field="status"]'), 'suspended');
    assert.equal(await listSessions(merchant.testKey), 403);

    await page.getByRole('button', { name: 'Reactivate' }).click();
    await page.getByRole('button', { name: 'Suspend' }).waitFor();
    assert.equal(await text('[data-field="status"]'), 'active');
    assert.equal(await listSessions(merchant.testKey), 200);
  });

  it("When an operator sets a merchant's limits, fees and live terminal, then the page reads them back, the password never; bad fees are refused and change nothing", async () => {
    const merchant = await system.newMerchant();
    await openMerchant(merchant.merchantId);
    const liveAccountBefore = await text('[data-field="live-account"]');
    await page.getByLabel('create (test)').fill('7');
    await page.getByLabel('refund (test)').fill('3');
    await page.getByRole('button', { name: 'Save test' }).click();
    await page.locator('.notice.ok').waitFor();

    await page.getByLabel('Percent').fill('1.75');
    await page.getByLabel('Fixed (TND)').fill('0.350');
    await page.getByRole('button', { name: 'Save fees' }).click();
    await page.locator('.notice.ok').waitFor();

    const terminalPassword = `terminal-${randomBytes(6).toString('hex')}`;
    await page.getByLabel('Terminal user').fill('shop-live-user');
    await page.getByLabel('Terminal password').fill(terminalPassword);
    await page.getByRole('button', { name: 'Save terminal' }).click();
    await page.locator('.notice.ok').waitFor();

    // Read back on a fresh page, from the services that keep them.
    await page.goto(ops(`merchants/${merchant.merchantId}`));
    assert.deepEqual([await text('[data-field="test-create"]'), await text('[data-field="test-refund"]')], ['7', '3']);
    assert.equal(await text('[data-field="live-account"]'), liveAccountBefore, 'the other mode keeps its limits');
    assert.equal(await text('[data-field="fees"]'), '1.75 % + 0.350 TND');
    assert.equal(await text('[data-field="terminal-live"]'), 'Configured, user shop-live-user');
    assert.equal(await text('[data-field="terminal-test"]'), 'Built-in sandbox terminal');
    const password = page.getByLabel('Terminal password');
    assert.deepEqual([await password.getAttribute('type'), await password.inputValue()], ['password', '']);
    assert.ok(!(await page.content()).includes(terminalPassword));

    // The adapter's rule, in its words, on the page; the fees stay.
    await page.getByLabel('Percent').fill('150');
    await page.getByRole('button', { name: 'Save fees' }).click();
    await page.locator('.notice.error').waitFor();
    assert.match(await text('.notice.error'), /percent must be a decimal from 0 to 100/);
    await page.goto(ops(`merchants/${merchant.merchantId}`));
    assert.equal(await text('[data-field="fees"]'), '1.75 % + 0.350 TND');
    await page.goto(ops(`audit-log?merchant=${merchant.merchantId}`));
    assert.deepEqual(
      (await auditRows()).filter((e) => !READS.test(e.action)).map((e) => [e.action, e.outcome]).slice(0, 4),
      [['fees.set', 'validation-error'], ['terminal.set', 'succeeded'], ['fees.set', 'succeeded'], ['limits.set', 'succeeded']],
    );
    assert.ok(!(await page.content()).includes(terminalPassword), 'the terminal password is in the audit log');
  });

  it('When a refund waits for an operator, then it is in the queue, and resolving it takes it out of the queue and closes it', async () => {
    const merchant = await system.newMerchant({ limits: { account: 10_000, create: 10_000, refund: 10_000 } });
    const refund = await manualRefund(merchant);
    await page.goto(ops('manual-refunds'));
    const row = page.locator(`tr[data-refund="${refund.refund_id}"]`);
    assert.ok((await row.textContent())?.includes('15.000 TND'));
    await row.getByLabel('Outcome').selectOption('succeeded');
    await row.getByRole('button', { name: 'Resolve' }).click();
    await page.locator('.notice.ok').waitFor();
    assert.equal(await text('.notice.ok'), `Refund ${refund.refund_id} is resolved: SUCCEEDED.`);
    assert.equal(await page.locator(`tr[data-refund="${refund.refund_id}"]`).count(), 0);
    const queue = (await system.admin(['refund', 'list-manual'])) as { data: { refund_id: string }[] };
    assert.ok(!queue.data.some((r) => r.refund_id === refund.refund_id));
    const read = await system.api(merchant.testKey).get<{ status: string }>(`/gateway/refunds/${refund.refund_id}/`);
    assert.equal(read.body.status, 'succeeded');
  });

  it("When an operator acts on a merchant, then the audit log shows each action newest first, as the operator's, by email, with the address; filtered by merchant and paged", async () => {
    const merchant = await system.newMerchant();
    await openMerchant(merchant.merchantId);
    await page.getByRole('button', { name: 'Suspend' }).click();
    await page.getByRole('button', { name: 'Reactivate' }).click();
    await page.getByRole('button', { name: 'Suspend' }).waitFor();
    await page.getByLabel('account (live)').fill('11');
    await page.getByRole('button', { name: 'Save live' }).click();
    await page.locator('.notice.ok').waitFor();
    await page.getByRole('link', { name: 'Audit log' }).last().click();
    await page.waitForURL(`**/ops/audit-log?merchant=${merchant.merchantId}`);
    const entries = await auditRows();
    const changes = entries.filter((e) => !READS.test(e.action));
    assert.deepEqual(
      changes.slice(0, 3).map((e) => [e.action, e.actorType, e.actor]),
      [
        ['limits.set', 'operator', operatorEmail],
        ['merchant.reactivate', 'operator', operatorEmail],
        ['merchant.suspend', 'operator', operatorEmail],
      ],
    );
    assert.ok(changes.slice(0, 3).every((e) => e.outcome === 'succeeded' && e.address !== '—'));
    assert.equal(entries.at(-1)?.action, 'merchant.create', 'the oldest entry of this merchant: its creation by gateway-admin');
    assert.ok(entries.every((e) => e.merchant === merchant.merchantId));

    // More entries than a page: "Older" pages on by `before`, without repeating one.
    for (let i = 0; i < 50; i++) await system.admin(['limits', 'set', merchant.merchantId, '--mode', 'test', '--create', String(10 + i)]);
    await page.goto(ops(`audit-log?merchant=${merchant.merchantId}`));
    const first = await auditRows();
    assert.equal(first.length, 50);
    await page.getByRole('link', { name: /Older/ }).click();
    const second = await auditRows();
    // The rest: the console's three changes and the creation, with any refused read between them (a reveal asked before the secret was made).
    assert.deepEqual(
      second.filter((e) => !READS.test(e.action) && e.action !== 'webhook_endpoint.reveal_secret').map((e) => e.action),
      ['limits.set', 'merchant.reactivate', 'merchant.suspend', 'merchant.create'],
    );
    assert.equal(new Set([...first, ...second].map((e) => e.id)).size, first.length + second.length);
    assert.equal(second.at(-1)?.action, 'merchant.create');
    assert.equal(await page.getByRole('link', { name: /Older/ }).count(), 0);
  });

  it('When a merchant is named with markup, then the list and its page show the name as text and no element of it exists', async () => {
    const created = (await system.admin(['merchant', 'create', '--name', HOSTILE_NAME, '--order-prefix', 'XS'])) as { merchant_id: string };
    const escaped = '&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;';
    for (const path of [`merchants?q=${created.merchant_id}`, `merchants/${created.merchant_id}`]) {
      await page.goto(ops(path));
      const source = await page.content();
      assert.ok(source.includes(escaped), `${path}: the name is not there escaped`);
      assert.ok(!source.includes(HOSTILE_NAME), `${path}: the raw name is in the page`);
      assert.equal(await page.locator('main script, main img, img[src="x"]').count(), 0, `${path}: the name made an element`);
      assert.ok((await text('main')).includes(HOSTILE_NAME), `${path}: the name is not shown as text`);
    }
    assert.ok(!dialogs.some((d) => d.startsWith('alert')), `an alert ran: ${dialogs.join(', ')}`);
  });

  describe('what must not work', () => {
    it("When a merchant's dashboard user brings their session to /ops/, then the console sends them to its sign-in, and their password does not open it", async () => {
      const merchant = await system.newMerchant();
      const email = `owner-${randomBytes(4).toString('hex')}@example.com`;
      await system.admin(['user', 'create', merchant.merchantId, '--email', email, '--role', 'owner', '--password', PASSWORD]);
      const cookie = await signInOverHttp('dashboard', email, PASSWORD);
      assert.equal((await fetch(`${system.baseUrl}/dashboard/payments`, { headers: { cookie }, redirect: 'manual' })).status, 200, 'the dashboard session works');
      const session = cookie.split('=')[1] ?? '';
      for (const asOps of [cookie, `gw_ops=${session}`]) {
        const res = await fetch(ops('merchants'), { headers: { cookie: asOps }, redirect: 'manual' });
        assert.equal(res.status, 303);
        assert.match(res.headers.get('location') ?? '', /^\/ops\/sign-in\?next=/);
      }
      const refused = await fetch(ops('sign-in'), { method: 'POST', body: new URLSearchParams({ email, password: PASSWORD }), redirect: 'manual' });
      assert.equal(refused.status, 401);
      assert.deepEqual(refused.headers.getSetCookie(), []);
    });

    it('When a change comes without the CSRF token, with a wrong one, or from another origin, then it answers 403 and changes nothing', async () => {
      const merchant = await system.newMerchant();
      const cookie = await signInOverHttp('ops', operatorEmail, PASSWORD);
      const pageHtml = await (await fetch(ops(`merchants/${merchant.merchantId}`), { headers: { cookie } })).text();
      const csrf = /name="_csrf" value="([^"]+)"/.exec(pageHtml)?.[1] ?? '';
      assert.ok(csrf.length > 10);
      const post = (path: string, form: Record<string, string>, headers: Record<string, string> = {}) =>
        fetch(ops(`merchants/${merchant.merchantId}/${path}`), { method: 'POST', body: new URLSearchParams(form), headers: { cookie, ...headers }, redirect: 'manual' });

      for (const [form, headers] of [
        [{}, {}],
        [{ _csrf: `${csrf.slice(0, -2)}xx` }, {}],
        [{ _csrf: csrf }, { origin: 'https://attacker.example' }],
        // What a browser sends with another site's form from a no-referrer page: the token would not be known there, but even with it.
        [{ _csrf: csrf }, { origin: 'null', 'sec-fetch-site': 'cross-site' }],
      ] as const) {
        assert.equal((await post('suspend', form, headers)).status, 403);
        assert.equal((await post('limits', { ...form, mode: 'test', create: '1' }, headers)).status, 403);
      }
      assert.equal(await listSessions(merchant.testKey), 200, 'still active');
      const after = await (await fetch(ops(`merchants/${merchant.merchantId}`), { headers: { cookie } })).text();
      assert.match(after, /data-field="status">active</);
      assert.doesNotMatch(after, /data-field="test-create">1</);
      // With the token, the same request is made; once it is in the audit log, nothing refused before it is.
      assert.equal((await post('suspend', { _csrf: csrf })).status, 200);
      assert.equal(await listSessions(merchant.testKey), 403);
      let changes: string[] = [];
      await pollUntil(
        async () => {
          const audit = (await system.admin(['audit', 'list', '--merchant', merchant.merchantId])) as { data: { action: string }[] };
          changes = audit.data.map((e) => e.action).filter((a) => a === 'merchant.suspend' || a === 'limits.set');
          return changes.length > 0;
        },
        10_000,
        'the suspension in the audit log',
      );
      assert.deepEqual(changes, ['merchant.suspend']);
    });
  });

  /** Signs in at a door over plain HTTP; the session cookie as a Cookie header. */
  async function signInOverHttp(door: 'ops' | 'dashboard', email: string, password: string): Promise<string> {
    const res = await fetch(`${system.baseUrl}/${door}/sign-in`, { method: 'POST', body: new URLSearchParams({ email, password, next: `/${door}/` }), redirect: 'manual' });
    assert.equal(res.status, 303, await res.text());
    const name = door === 'ops' ? 'gw_ops' : 'gw_dashboard';
    const cookie = res.headers.getSetCookie().map((c) => c.split(';')[0] ?? '').find((c) => c.startsWith(`${name}=`));
    assert.ok(cookie, `no ${name} cookie`);
    return cookie;
  }

  /** A refund the acquirer cannot confirm (card 5126): accepted, waiting for an operator. */
  async function manualRefund(merchant: Merchant): Promise<RefundResult> {
    const api = system.api(merchant.testKey);
    const created = await api.post<{ id: string; checkout_url: string }>('/gateway/sessions/', sessionRequest({ amount: '40.000' }));
    assert.equal(created.status, 201, created.text);
    await payOnPage(created.body.checkout_url, { card_number: '4000000000005126' });
    await pollUntil(async () => (await api.get<{ status: string }>(`/gateway/sessions/${created.body.id}/`)).body.status === 'SUCCEEDED', 10_000, 'the session paid');
    const refund = await api.post<RefundResult>(`/gateway/sessions/${created.body.id}/refund/`, { reason: 'Damaged', refund_type: 'PARTIAL', amount: '15.000' });
    assert.equal(refund.status, 200, refund.text);
    assert.equal(refund.body.automated_refund, false);
    return refund.body;
  }

  async function auditRows(): Promise<{ id: string; action: string; actorType: string; actor: string; merchant: string; outcome: string; address: string }[]> {
    return page.locator('tr[data-audit]').evaluateAll((rows) =>
      rows.map((row) => {
        const cell = (selector: string) => (row.querySelector(selector)?.textContent ?? '').trim();
        const cells = row.querySelectorAll('td');
        return {
          id: row.getAttribute('data-audit') ?? '',
          action: cell('[data-field="action"]'),
          actorType: cell('[data-field="actor_type"]'),
          actor: cell('[data-field="actor"]'),
          merchant: (cells[3]?.textContent ?? '').trim(),
          outcome: cell('[data-field="outcome"]'),
          address: (cells[6]?.textContent ?? '').trim(),
        };
      }),
    );
  }
});
