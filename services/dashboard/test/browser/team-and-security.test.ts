/**
 * Team, two-step sign-in and the audit log (D14) in Chromium: an owner
 * invites, changes roles and removes; a person turns on TOTP and signs in with
 * it or a recovery code; each change shows in the owner's audit log.
 */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { launchBrowser, TestSystem, type Merchant, type TestBrowser } from '@gateway/testkit';
import { totpCode, totpStep } from '../../src/domain/totp.js';

const PASSWORD = 'correct horse battery staple';

describe('team, two-step sign-in and audit log, in a browser', function () {
  this.timeout(180_000);
  let system: TestSystem;
  let browser: TestBrowser;

  before(async () => {
    system = await TestSystem.start({ readyTimeoutMs: 60_000 });
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await system?.shutdown();
  });

  async function newPage(): Promise<Page> {
    const page = await (await browser.newContext({ locale: 'en-GB' })).newPage();
    page.on('dialog', (dialog) => void dialog.accept());
    return page;
  }

  async function signIn(page: Page, email: string, password = PASSWORD): Promise<void> {
    await page.goto(`${system.baseUrl}/dashboard/sign-in`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  async function owner(merchant: Merchant, email: string): Promise<Page> {
    await system.admin(['user', 'create', merchant.merchantId, '--email', email, '--role', 'owner', '--password', PASSWORD]);
    const page = await newPage();
    await signIn(page, email);
    await page.getByRole('heading', { name: 'Home', exact: true }).waitFor();
    return page;
  }

  it('when an owner invites, changes a role and removes someone, then the invitee sets a password once and gets exactly that role, and removal signs them out', async () => {
    const merchant = await system.newMerchant();
    const boss = await owner(merchant, 'boss@team.example');
    await boss.getByRole('link', { name: 'Team' }).click();
    await boss.getByLabel('Email').fill('dev@team.example');
    const invite = boss.locator('form').filter({ has: boss.getByRole('button', { name: 'Invite' }) });
    await invite.getByRole('combobox').selectOption('developer');
    await boss.getByRole('button', { name: 'Invite' }).click();
    // D20: the setup link goes to the invitee by mail, never to the inviter's page.
    await boss.getByText('Invitation mailed to dev@team.example.').waitFor();
    assert.equal(await boss.locator('.notice code').count(), 0);
    const [mail] = await system.mail.waitFor((m) => m.envelope.to.includes('dev@team.example'));
    const link = /https?:\/\/\S+\/dashboard\/setup\?token=[\w-]+/.exec(mail?.parsed.text ?? '')?.[0] ?? '';
    assert.match(link, /\/dashboard\/setup\?token=/);

    // A short password is refused by the server too (the browser's own check aside), and the link still works after.
    const token = new URL(link).searchParams.get('token') ?? '';
    const short = await fetch(`${system.baseUrl}/dashboard/setup`, { method: 'POST', redirect: 'manual', body: new URLSearchParams({ token, password: 'short' }) });
    assert.equal(short.status, 422);
    const dev = await newPage();
    await dev.goto(link);
    await dev.getByLabel('New password').fill(PASSWORD);
    await dev.getByRole('button', { name: 'Set password' }).click();
    const again = await dev.goto(link);
    assert.equal(again?.status(), 410, 'a setup link works once');
    await signIn(dev, 'dev@team.example');
    await dev.getByRole('link', { name: 'API keys' }).click();
    assert.equal(await dev.getByRole('button', { name: 'Create key' }).count(), 1);

    // Demoted to viewer: the next page already knows.
    await boss.getByLabel('Role dev@team.example').selectOption('viewer');
    await boss.getByRole('row').filter({ hasText: 'dev@team.example' }).getByRole('button', { name: 'Change role' }).click();
    await boss.getByText('Role changed.').waitFor();
    await dev.reload();
    assert.equal(await dev.getByRole('button', { name: 'Create key' }).count(), 0);

    // The last owner cannot step down.
    await boss.getByLabel('Role boss@team.example').selectOption('viewer');
    await boss.getByRole('row').filter({ hasText: 'boss@team.example' }).getByRole('button', { name: 'Change role' }).click();
    await boss.getByText('at least one owner').waitFor();

    await boss.getByRole('row').filter({ hasText: 'dev@team.example' }).getByRole('button', { name: 'Remove' }).click();
    await boss.getByText('Removed').waitFor();
    await dev.reload();
    assert.match(dev.url(), /\/dashboard\/sign-in/, 'a removed person is signed out');

    await boss.getByRole('link', { name: 'Audit log' }).click();
    const log = (await boss.locator('table').textContent()) ?? '';
    for (const action of ['user.create', 'user.change_role', 'user.remove']) assert.ok(log.includes(action), `${action} in the audit log`);
    assert.ok(log.includes('boss@team.example'));
  });

  it('when two-step sign-in is turned on, then signing in asks for a code, takes a recovery code once, and the database keeps the secret only encrypted', async () => {
    const merchant = await system.newMerchant();
    const page = await owner(merchant, 'totp@team.example');
    await page.getByRole('link', { name: 'Security' }).click();
    await page.getByRole('button', { name: 'Turn on' }).click();
    const secret = (await page.locator('#totp-secret').textContent())?.trim() ?? '';
    assert.match(secret, /^[A-Z2-7]{32}$/);
    await page.getByLabel('Code').fill(totpCode(secret, totpStep()));
    await page.getByRole('button', { name: 'Turn on' }).click();
    const codes = ((await page.locator('.notice pre').textContent()) ?? '').split('\n').filter(Boolean);
    assert.equal(codes.length, 10);
    assert.ok(!(await system.dumpDatabase()).includes(secret), 'the TOTP secret in clear in the database');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await signIn(page, 'totp@team.example');
    await page.getByLabel('Code').waitFor();
    // The password alone opens nothing.
    const early = await page.goto(`${system.baseUrl}/dashboard/payments`);
    assert.match(early?.url() ?? '', /\/dashboard\/sign-in/);
    await signIn(page, 'totp@team.example');
    await page.getByLabel('Code').fill('000000' === totpCode(secret, totpStep()) ? '111111' : '000000');
    await page.getByRole('button', { name: 'Continue' }).click();
    assert.ok(await page.getByText('That code is not right.').isVisible());
    // The app's next code: the one that turned it on is spent (a code is good once).
    await page.getByLabel('Code').fill(totpCode(secret, totpStep() + 1));
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Home', exact: true }).waitFor();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await signIn(page, 'totp@team.example');
    await page.getByLabel('Code').fill(codes[0] ?? '');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Home', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await signIn(page, 'totp@team.example');
    await page.getByLabel('Code').fill(codes[0] ?? '');
    await page.getByRole('button', { name: 'Continue' }).click();
    assert.ok(await page.getByText('That code is not right.').isVisible(), 'a recovery code works once');
  });
});
