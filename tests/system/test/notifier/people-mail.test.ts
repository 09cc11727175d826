/**
 * Mail to the dashboard's people (D20) against the real services and a real
 * SMTP server (the system's mail catcher): an owner's invitation arrives and
 * its link sets a password; "Forgot password?" answers the same for any
 * address and mails a one-use reset link that lapses (its lifetime shortened
 * through configuration); an address with CR/LF gets no header of its own;
 * the owners are mailed once each when an endpoint is disabled and when an
 * operator resolves one of their pending refunds, in their language (marked
 * [TEST] when it happened in test mode, D29).
 */
import assert from 'node:assert/strict';
import { newId } from '@gateway/contracts';
import { namesFor } from '@gateway/messaging';
import { payOnPage, pollUntil, sessionRequest, TestSystem, Visitor, WebhookReceiver, type CaughtMail, type Merchant } from '@gateway/testkit';

const PASSWORD = 'correct horse battery staple';
const NEW_PASSWORD = 'a brand new passphrase 42';
/** Reset links live this long here: long enough to be used at once, short enough to see one lapse. */
const RESET_TTL_SECONDS = 5;
const RESET_LIMIT = 12;
/** No new reset link is mailed while the newest is younger than this. */
const RESET_INTERVAL_SECONDS = 3;

type MailRow = { kind: string; status: string; language: string; merchant_id: string | null };

describe('Mail to dashboard people (D20)', function () {
  this.timeout(120_000);
  let system: TestSystem;
  let receiver: WebhookReceiver;

  before(async () => {
    system = await TestSystem.start({
      serviceEnv: {
        // Every request here comes from one address: the per-address bound is raised for them, and reached on purpose last.
        // A short RPC timeout: the test of an unreachable notifier waits for it.
        dashboard: {
          PASSWORD_RESET_TTL_SECONDS: String(RESET_TTL_SECONDS),
          PASSWORD_RESET_LIMIT: String(RESET_LIMIT),
          PASSWORD_RESET_INTERVAL_SECONDS: String(RESET_INTERVAL_SECONDS),
          RPC_TIMEOUT_MS: '3000',
          // The client's X-Forwarded-For entry, which the gateway (trusted below) passes on before its own.
          TRUST_PROXY_HOPS: '2',
        },
        // As behind a proxy of ours: the gateway passes a client's X-Forwarded-For on; the tests of many addresses send one.
        'api-gateway': { TRUST_PROXY: 'true' },
        'webhook-dispatcher': { WEBHOOK_RETRY_DELAYS_SECONDS: '1,1,1', SWEEP_INTERVAL_SECONDS: '1', WEBHOOK_ENDPOINT_DISABLE_AFTER_SECONDS: '2' },
      },
    });
    receiver = await WebhookReceiver.start(() => ({ status: 500 }));
  });
  after(async () => {
    await receiver?.close();
    await system?.shutdown();
  });

  const address = (tag: string) => `${tag}-${newId('ps').slice(3, 15).toLowerCase()}@shop.example`;

  async function signedIn(email: string, password = PASSWORD, language = 'en'): Promise<Visitor> {
    const visitor = new Visitor(system.baseUrl);
    visitor.setCookie(`gw_lang=${language}`);
    const answer = await visitor.post('/dashboard/sign-in', { email, password });
    assert.equal(answer.status, 303, answer.html);
    return visitor;
  }

  async function signInStatus(email: string, password: string): Promise<number> {
    return (await new Visitor(system.baseUrl).post('/dashboard/sign-in', { email, password })).status;
  }

  /** The one link of `kind` a mail carries, as a path of this system. */
  function linkIn(mail: CaughtMail | undefined, kind: 'setup' | 'reset'): string {
    const found = new RegExp(`https?://\\S+?(/dashboard/${kind}\\?token=[\\w-]+)`).exec(mail?.parsed.text ?? '');
    assert.ok(found?.[1], `no ${kind} link in: ${mail?.parsed.text}`);
    return found[1];
  }

  const tokenOf = (path: string) => new URL(path, system.baseUrl).searchParams.get('token') ?? '';

  const mailsTo = (recipient: string) => system.db.query<MailRow>('SELECT kind, status, language, merchant_id FROM notifier.mails WHERE recipient = $1 ORDER BY created_at', [recipient]);

  async function settled(): Promise<void> {
    await system.waitForQueueDrained(namesFor(system.prefix).eventQueue('notifier'));
  }

  function assertNoSecrets(mail: CaughtMail, secrets: readonly string[]): void {
    for (const secret of secrets) assert.ok(!mail.raw.includes(secret), `the mail holds ${secret}`);
    assert.ok(!/sk_(test|live)_/.test(mail.raw), 'a key in the mail');
    assert.ok(!/whsec_/.test(mail.raw), 'a webhook secret in the mail');
  }

  async function forgot(email: string, language = 'en', from?: string): Promise<{ status: number; html: string }> {
    const visitor = new Visitor(system.baseUrl);
    visitor.setCookie(`gw_lang=${language}`);
    return visitor.post('/dashboard/forgot-password', { email }, from === undefined ? {} : { 'x-forwarded-for': from });
  }

  /** A client address of its own for each call (the dashboard trusts one proxy hop). */
  let lastOctets = 0;
  const anotherAddress = () => {
    lastOctets += 1;
    return `198.51.${Math.floor(lastOctets / 250)}.${(lastOctets % 250) + 1}`;
  };

  /** Whether a stored mail of `recipient` still holds `token` in a body. */
  async function mailQueueHolds(recipient: string, token: string): Promise<boolean> {
    const rows = await system.db.query<{ text_body: string; html_body: string }>('SELECT text_body, html_body FROM notifier.mails WHERE recipient = $1', [recipient]);
    assert.ok(rows.length > 0, 'no mail stored');
    return rows.some((r) => r.text_body.includes(token) || r.html_body.includes(token));
  }

  it('when an owner invites someone from the team page, then the setup link goes to them by mail in the page language, not to the page, and it sets their password', async () => {
    const merchant = await system.newMerchant();
    const owner = await system.dashboardUser(merchant.merchantId, 'owner', PASSWORD);
    const visitor = await signedIn(owner, PASSWORD, 'fr');
    const invitee = address('invitee');
    const answer = await visitor.post('/dashboard/team', { _csrf: await visitor.csrf('/dashboard/team'), email: invitee, role: 'developer' });
    assert.equal(answer.status, 200, answer.html);
    assert.ok(answer.html.includes(`Invitation envoyée à ${invitee}`), answer.html);
    assert.ok(!answer.html.includes('/dashboard/setup?token='), 'the inviter sees the setup link');
    const [mail] = await system.mail.waitFor((m) => m.envelope.to.includes(invitee));
    assert.ok(mail);
    assert.match(mail.parsed.subject ?? '', /^Invitation au tableau de bord de Test Shop \d+$/);
    assert.match(mail.parsed.text ?? '', /avec le rôle développeur/);
    assert.match(String(mail.parsed.html), /<html lang="fr" dir="ltr">/);
    assert.match(mail.headerBlock, /^Auto-Submitted: auto-generated$/m);
    assertNoSecrets(mail, [merchant.testKey, PASSWORD]);
    const link = linkIn(mail, 'setup');
    const setup = new Visitor(system.baseUrl);
    assert.equal((await setup.get(link)).status, 200);
    const set = await setup.post('/dashboard/setup', { token: tokenOf(link), password: NEW_PASSWORD });
    assert.equal(set.status, 303, set.html);
    assert.equal(await signInStatus(invitee, NEW_PASSWORD), 303);
    assert.deepEqual(await mailsTo(invitee), [{ kind: 'invitation', status: 'sent', language: 'fr', merchant_id: merchant.merchantId }]);
    assert.equal(await mailQueueHolds(invitee, tokenOf(link)), false, 'the sent invitation keeps its link in the mail queue');
    // "Resend invitation" is for people who have not set a password: refused now, nothing mailed.
    const personId = (await system.db.query<{ id: string }>('SELECT id FROM dashboard.people WHERE email = $1', [invitee]))[0]?.id ?? '';
    const resend = await visitor.post(`/dashboard/team/${personId}/resend`, { _csrf: await visitor.csrf('/dashboard/team') });
    assert.equal(resend.status, 409, resend.html);
    assert.equal(system.mail.to(invitee).length, 1);
  });

  it('when "Resend invitation" is chosen, then a new link is mailed and the older one no longer works', async () => {
    const merchant = await system.newMerchant();
    const owner = await system.dashboardUser(merchant.merchantId, 'owner', PASSWORD);
    const visitor = await signedIn(owner);
    const invitee = address('again');
    await visitor.post('/dashboard/team', { _csrf: await visitor.csrf('/dashboard/team'), email: invitee, role: 'viewer' });
    const [first] = await system.mail.waitFor((m) => m.envelope.to.includes(invitee));
    const team = await visitor.get('/dashboard/team');
    const resendPath = /action="(\/dashboard\/team\/usr_\w+\/resend)"/.exec(team.html)?.[1];
    assert.ok(resendPath, 'no Resend invitation button');
    const resent = await visitor.post(resendPath, { _csrf: await visitor.csrf('/dashboard/team') });
    assert.match(resent.html, /New invitation mailed to/);
    const mails = await system.mail.waitFor((m) => m.envelope.to.includes(invitee), 2);
    const second = mails.find((m) => m !== first);
    assert.equal((await new Visitor(system.baseUrl).get(linkIn(first, 'setup'))).status, 410, 'the first link still works');
    assert.equal((await new Visitor(system.baseUrl).get(linkIn(second, 'setup'))).status, 200);
  });

  it('when the notifier cannot be reached, then the invitation page says it could not be mailed and the person stays invited; "Resend invitation" mails them once it is back', async () => {
    const merchant = await system.newMerchant();
    const owner = await system.dashboardUser(merchant.merchantId, 'owner', PASSWORD);
    const visitor = await signedIn(owner);
    const invitee = address('later');
    await system.stopService('notifier');
    let answer;
    try {
      answer = await visitor.post('/dashboard/team', { _csrf: await visitor.csrf('/dashboard/team'), email: invitee, role: 'viewer' });
    } finally {
      await system.startService('notifier');
    }
    assert.equal(answer.status, 200, answer.html);
    assert.match(answer.html, /is invited, but the invitation could not be mailed/);
    assert.ok(!answer.html.includes('/dashboard/setup?token='));
    const resendPath = /action="(\/dashboard\/team\/usr_\w+\/resend)"/.exec((await visitor.get('/dashboard/team')).html)?.[1];
    assert.ok(resendPath, 'the invited person has no Resend invitation button');
    const resent = await visitor.post(resendPath, { _csrf: await visitor.csrf('/dashboard/team') });
    assert.match(resent.html, /New invitation mailed to/);
    const [mail] = await system.mail.waitFor((m) => m.envelope.to.includes(invitee));
    assert.equal((await new Visitor(system.baseUrl).get(linkIn(mail, 'setup'))).status, 200);
    await settled();
    assert.equal(system.mail.to(invitee).length, 1, 'the command that lapsed while the notifier was away was mailed late');
  });

  it('when an operator asks "Forgot password?" at the console, then the reset link is mailed and sets their password at the console', async () => {
    const email = address('operator');
    await system.admin(['operator', 'create', '--email', email, '--password', PASSWORD]);
    const visitor = new Visitor(system.baseUrl);
    assert.match((await visitor.get('/ops/sign-in')).html, /href="\/ops\/forgot-password"/);
    assert.equal((await visitor.post('/ops/forgot-password', { email })).status, 200);
    const [mail] = await system.mail.waitFor((m) => m.envelope.to.includes(email));
    assert.match(mail?.parsed.text ?? '', /on the operations console/);
    const link = /https?:\/\/\S+?(\/ops\/reset\?token=[\w-]+)/.exec(mail?.parsed.text ?? '')?.[1];
    assert.ok(link);
    assert.equal((await visitor.get(link)).status, 200);
    assert.equal((await visitor.post('/ops/reset', { token: tokenOf(link), password: NEW_PASSWORD })).location, '/ops/sign-in?reset=done');
    assert.equal((await new Visitor(system.baseUrl).post('/ops/sign-in', { email, password: NEW_PASSWORD })).status, 303);
    assert.deepEqual((await mailsTo(email)).map((m) => [m.kind, m.merchant_id]), [['password_reset', null]]);
  });

  it('when "Forgot password?" is asked for an address with an account and for one without, then both answers are the same page and only the account gets a mail', async () => {
    const merchant = await system.newMerchant();
    const owner = await system.dashboardUser(merchant.merchantId, 'owner', PASSWORD);
    const nobody = address('nobody');
    const signInPage = await new Visitor(system.baseUrl).get('/dashboard/sign-in');
    assert.match(signInPage.html, /href="\/dashboard\/forgot-password">Forgot password\?</);
    assert.equal((await new Visitor(system.baseUrl).get('/dashboard/forgot-password')).status, 200);
    const known = await forgot(owner);
    const unknown = await forgot(nobody);
    assert.equal(known.status, 200);
    assert.equal(unknown.status, 200);
    assert.equal(known.html, unknown.html, 'the answers differ');
    assert.match(known.html, /If this address has an account here/);
    const [mail] = await system.mail.waitFor((m) => m.envelope.to.includes(owner));
    assert.equal(mail?.parsed.subject, 'Reset your password');
    assertNoSecrets(mail, [PASSWORD, merchant.testKey]);
    await pollUntil(async () => (await mailsTo(owner))[0]?.status === 'sent', 5_000, 'the reset mail sent');
    assert.equal(system.mail.to(nobody).length, 0);
    assert.deepEqual(await mailsTo(nobody), []);
    assert.equal(system.mail.to(owner).length, 1, 'one mail');
    // The dashboard keeps only the link's hash.
    const token = tokenOf(linkIn(mail, 'reset'));
    const kept = await system.db.query<{ token_hash: string }>('SELECT r.token_hash FROM dashboard.password_resets r JOIN dashboard.people p ON p.id = r.person_id WHERE p.email = $1', [owner]);
    assert.equal(kept.length, 1);
    assert.notEqual(kept[0]?.token_hash, token);
    // Nor does the notifier, once the mail is sent.
    assert.equal(await mailQueueHolds(owner, token), false, 'the sent reset mail keeps its link in the mail queue');
  });

  it('when a reset link is used, then the new password works, the old one and the other sessions do not, the second factor stays on, and the link is refused the second time', async () => {
    const merchant = await system.newMerchant();
    const owner = await system.dashboardUser(merchant.merchantId, 'owner', PASSWORD);
    const elsewhere = await signedIn(owner);
    assert.equal((await elsewhere.get('/dashboard/team')).status, 200);
    // Two-step sign-in on (as its set-up leaves it): a reset of the password must not take it off.
    await system.db.query(`UPDATE dashboard.people SET totp_enabled_at = now() WHERE email = $1`, [owner]);
    await forgot(owner, 'ar');
    const [mail] = await system.mail.waitFor((m) => m.envelope.to.includes(owner));
    assert.match(String(mail?.parsed.html), /<html lang="ar" dir="rtl">/);
    assert.equal(mail?.parsed.subject, 'إعادة تعيين كلمة المرور');
    const link = linkIn(mail, 'reset');
    const visitor = new Visitor(system.baseUrl);
    const form = await visitor.get(link);
    assert.equal(form.status, 200);
    assert.match(form.html, /Choose a new password/);
    const tooShort = await visitor.post('/dashboard/reset', { token: tokenOf(link), password: 'short' });
    assert.equal(tooShort.status, 422, 'a password the rules refuse');
    const done = await visitor.post('/dashboard/reset', { token: tokenOf(link), password: NEW_PASSWORD });
    assert.equal(done.status, 303, done.html);
    assert.equal(done.location, '/dashboard/sign-in?reset=done');
    assert.equal(await signInStatus(owner, PASSWORD), 401, 'the old password still works');
    const signIn = await new Visitor(system.baseUrl).post('/dashboard/sign-in', { email: owner, password: NEW_PASSWORD });
    assert.equal(signIn.status, 303);
    assert.match(signIn.location ?? '', /^\/dashboard\/second-factor/, 'the second factor was dropped');
    assert.equal((await elsewhere.get('/dashboard/team')).status, 303, 'a session of the old password lives on');
    const again = await new Visitor(system.baseUrl).post('/dashboard/reset', { token: tokenOf(link), password: 'yet another passphrase' });
    assert.equal(again.status, 410);
    assert.match(again.html, /not valid: it was used already, or it has lapsed/);
    assert.equal((await new Visitor(system.baseUrl).get(link)).status, 410);
    assert.equal(await signInStatus(owner, 'yet another passphrase'), 401);
    await pollUntil(
      async () => ((await system.admin(['audit', 'list', '--merchant', merchant.merchantId])) as { data: { action: string }[] }).data.some((e) => e.action === 'user.reset_password'),
      10_000,
      'the reset in the audit log',
    );
  });

  it('when a reset link has lapsed, then its page says so in the page language and it sets nothing; a newer request spends the older link', async () => {
    const merchant = await system.newMerchant();
    const owner = await system.dashboardUser(merchant.merchantId, 'owner', PASSWORD);
    await forgot(owner);
    const [first] = await system.mail.waitFor((m) => m.envelope.to.includes(owner));
    // A new link is mailed only once the newest is a little older.
    await new Promise((resolve) => setTimeout(resolve, RESET_INTERVAL_SECONDS * 1000));
    await forgot(owner);
    const both = await system.mail.waitFor((m) => m.envelope.to.includes(owner), 2);
    const second = both.find((m) => m !== first);
    const older = linkIn(first, 'reset');
    assert.equal((await new Visitor(system.baseUrl).get(older)).status, 410, 'the older link works beside the newer');
    const link = linkIn(second, 'reset');
    const french = new Visitor(system.baseUrl);
    french.setCookie('gw_lang=fr');
    assert.equal((await french.get(link)).status, 200);
    await pollUntil(async () => (await french.get(link)).status === 410, (RESET_TTL_SECONDS + 5) * 1000, 'the link lapsed');
    const page = await french.get(link);
    assert.match(page.html, /Ce lien de réinitialisation n’est pas valable/);
    assert.equal((await french.post('/dashboard/reset', { token: tokenOf(link), password: NEW_PASSWORD })).status, 410);
    assert.equal(await signInStatus(owner, PASSWORD), 303, 'the password changed');
  });

  it('when an address or an invitee carries CR/LF and a header, then no mail gets that header and nobody else gets a mail', async () => {
    const merchant = await system.newMerchant();
    const owner = await system.dashboardUser(merchant.merchantId, 'owner', PASSWORD);
    const thief = address('thief');
    const answer = await forgot(`${owner}\r\nBcc: ${thief}`);
    assert.equal(answer.status, 200);
    assert.equal(answer.html, (await forgot(address('other'))).html);
    const visitor = await signedIn(owner);
    const invited = await visitor.post('/dashboard/team', { _csrf: await visitor.csrf('/dashboard/team'), email: `x@shop.example\r\nBcc: ${thief}`, role: 'viewer' });
    assert.equal(invited.status, 422, invited.html);
    // A later mail of this owner goes out alone: the ones before wrote nothing.
    await forgot(owner);
    const [mail] = await system.mail.waitFor((m) => m.envelope.to.includes(owner));
    await settled();
    assert.equal(system.mail.to(owner).length, 1);
    assert.equal(system.mail.to(thief).length, 0);
    assert.ok(!/^Bcc:/im.test(mail?.headerBlock ?? ''), mail?.headerBlock);
    assert.equal((await system.db.query('SELECT 1 FROM notifier.mails WHERE recipient LIKE $1', [`%${thief}%`])).length, 0);
  });

  it("when the dispatcher disables a failing endpoint, then each owner gets one mail in their language, with its host and id but not the URL's path, query or a secret; developers get none", async () => {
    const merchant: Merchant = await system.newMerchant();
    const french = await system.dashboardUser(merchant.merchantId, 'owner', PASSWORD);
    const arabic = await system.dashboardUser(merchant.merchantId, 'owner', PASSWORD);
    const developer = await system.dashboardUser(merchant.merchantId, 'developer', PASSWORD);
    await signedIn(arabic, PASSWORD, 'ar');
    const url = receiver.url(`/failing/${merchant.merchantId}?token=hunter2secret`);
    const created = await system.api(merchant.testKey).post<{ id: string; secret: string }>('/gateway/webhook_endpoints/', { url, enabled_events: ['*'] });
    assert.equal(created.status, 201, created.text);
    const session = await system.api(merchant.testKey).post<{ id: string }>('/gateway/sessions/', sessionRequest({ amount: '10.000', email: address('buyer') }));
    assert.equal(session.status, 201, session.text);
    // Its webhook goes to the failing endpoint, which the sweep disables two seconds later.
    const canceled = await system.api(merchant.testKey).post(`/gateway/sessions/${session.body.id}/cancel/`);
    assert.equal(canceled.status, 200, canceled.text);
    const [fr] = await system.mail.waitFor((m) => m.envelope.to.includes(french), 1, 30_000);
    const [ar] = await system.mail.waitFor((m) => m.envelope.to.includes(arabic), 1, 10_000);
    assert.equal(fr?.parsed.subject, '[TEST] Point de réception de webhooks désactivé');
    assert.match(fr?.parsed.text ?? '', new RegExp(created.body.id));
    assert.match(String(ar?.parsed.html), /<html lang="ar" dir="rtl">/);
    assert.equal(ar?.parsed.subject, '[TEST] تعطيل نقطة استقبال Webhook');
    for (const mail of [fr, ar]) {
      assert.ok(mail);
      assertNoSecrets(mail, ['hunter2secret', created.body.secret, merchant.testKey]);
      assert.ok(!mail.raw.includes('/failing/'), "the URL's path is in the mail");
      assert.ok((mail.parsed.text ?? '').includes(new URL(url).origin), 'the host is not in the mail');
    }
    await settled();
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    assert.equal(system.mail.to(french).length, 1);
    assert.equal(system.mail.to(arabic).length, 1);
    assert.equal(system.mail.to(developer).length, 0);
    assert.deepEqual((await mailsTo(arabic)).map((m) => [m.kind, m.language]), [['endpoint_disabled_notice', 'ar']]);
  });

  it("when an operator resolves a merchant's pending refund, then the owner is mailed once with the outcome; the buyer's receipt still goes", async () => {
    const merchant = await system.newMerchant({ limits: { account: 10_000, create: 10_000, refund: 10_000 } });
    const owner = await system.dashboardUser(merchant.merchantId, 'owner', PASSWORD);
    await signedIn(owner, PASSWORD, 'en');
    await system.send('receipts.settings.set', { merchant_id: merchant.merchantId, mode: 'test', receipts_enabled: true });
    const api = system.api(merchant.testKey);
    const buyer = address('buyer');
    const created = await api.post<{ id: string; checkout_url: string; order_number: string }>('/gateway/sessions/', { ...sessionRequest({ amount: '125.500', email: buyer }), locale: 'en' });
    assert.equal(created.status, 201, created.text);
    await payOnPage(created.body.checkout_url, { card_number: '4000000000005126' }, 'en');
    const kept = await api.post<{ refund_id: string; automated_refund: boolean }>(`/gateway/sessions/${created.body.id}/refund/`, { refund_type: 'PARTIAL', amount: '20.000', reason: 'Returned' });
    const lost = await api.post<{ refund_id: string; automated_refund: boolean }>(`/gateway/sessions/${created.body.id}/refund/`, { refund_type: 'PARTIAL', amount: '10.000', reason: 'Damaged' });
    assert.deepEqual([kept.body.automated_refund, lost.body.automated_refund], [false, false], kept.text);
    await settled();
    assert.equal(system.mail.to(owner).length, 0, 'a notice while the refund waits');
    await system.admin(['refund', 'resolve', kept.body.refund_id, '--as', 'succeeded']);
    await system.admin(['refund', 'resolve', lost.body.refund_id, '--as', 'failed']);
    const notices = await system.mail.waitFor((m) => m.envelope.to.includes(owner), 2);
    const confirmed = notices.find((m) => m.parsed.subject === `[TEST] Refund ${kept.body.refund_id} confirmed`);
    const failed = notices.find((m) => m.parsed.subject === `[TEST] Refund ${lost.body.refund_id} failed`);
    assert.ok(confirmed && failed, notices.map((m) => m.parsed.subject).join(' | '));
    assert.match(confirmed.parsed.text ?? '', /Amount: TND\s20\.000/u);
    assert.match(confirmed.parsed.text ?? '', new RegExp(`Order number: ${created.body.order_number}`));
    assert.match(failed.parsed.text ?? '', /can be refunded again/);
    for (const mail of notices) assertNoSecrets(mail, ['4000000000005126', merchant.testKey]);
    await system.mail.waitFor((m) => m.envelope.to.includes(buyer) && (m.parsed.subject ?? '').startsWith('[TEST] Your refund'));
    await settled();
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    assert.equal(system.mail.to(owner).length, 2, 'one notice per resolution');
  });

  it('when "Forgot password?" is asked for one email from many addresses, then every answer is the same page, never 429, and the person gets one live link and mail per interval and none past the limit', async () => {
    const merchant = await system.newMerchant();
    const owner = await system.dashboardUser(merchant.merchantId, 'owner', PASSWORD);
    const usual = (await forgot(address('nobody'), 'en', anotherAddress())).html;
    // All at once: the person's row is locked while a link is made, so they leave one live link.
    const answers = await Promise.all(Array.from({ length: RESET_LIMIT + 2 }, () => forgot(owner, 'en', anotherAddress())));
    for (const answer of answers) {
      assert.equal(answer.status, 200);
      assert.equal(answer.html, usual);
    }
    await system.mail.waitFor((m) => m.envelope.to.includes(owner));
    await settled();
    await new Promise((resolve) => setTimeout(resolve, RESET_INTERVAL_SECONDS * 1000));
    assert.equal(system.mail.to(owner).length, 1, 'more than one link mailed within the interval');
    // Past the limit for this email, a later request is answered the same and mails nothing.
    const later = await forgot(owner, 'en', anotherAddress());
    assert.equal(later.status, 200);
    assert.equal(later.html, usual);
    await settled();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    assert.equal(system.mail.to(owner).length, 1, 'a mail past the limit for the email');
    const live = await system.db.query('SELECT 1 FROM dashboard.password_resets r JOIN dashboard.people p ON p.id = r.person_id WHERE p.email = $1 AND r.used_at IS NULL', [owner]);
    assert.equal(live.length, 1, 'more than one live link');
  });

  it("when one address is past its bound, then its requests for someone else's email do not count against that email", async () => {
    const merchant = await system.newMerchant();
    const owner = await system.dashboardUser(merchant.merchantId, 'owner', PASSWORD);
    const flooder = anotherAddress();
    for (let i = 0; i < RESET_LIMIT; i += 1) assert.equal((await forgot(address('junk'), 'en', flooder)).status, 200);
    for (let i = 0; i <= RESET_LIMIT; i += 1) assert.equal((await forgot(owner, 'en', flooder)).status, 429);
    const own = await forgot(owner, 'en', anotherAddress());
    assert.equal(own.status, 200, 'the person is locked out by the refused requests of another address');
    const [mail] = await system.mail.waitFor((m) => m.envelope.to.includes(owner));
    assert.equal(mail?.parsed.subject, 'Reset your password');
  });

  it('when a form too large or in another charset reaches a page open to all, then our page answers in the page language (413, 400) without a stack', async () => {
    const visitor = new Visitor(system.baseUrl);
    visitor.setCookie('gw_lang=fr');
    const large = await visitor.post('/dashboard/forgot-password', { email: `${'a'.repeat(100_000)}@shop.example` }, { 'x-forwarded-for': anotherAddress() });
    assert.equal(large.status, 413, large.html);
    assert.match(large.html, /<html lang="fr"/);
    assert.match(large.html, /Le formulaire envoyé est trop volumineux/);
    const other = await visitor.post('/ops/reset', { token: 't', password: NEW_PASSWORD }, { 'content-type': 'application/x-www-form-urlencoded; charset=latin1' });
    assert.equal(other.status, 400, other.html);
    assert.match(other.html, /Le formulaire envoyé n'a pas pu être lu|Le formulaire envoyé n&#39;a pas pu être lu|Le formulaire envoyé n&#x27;a pas pu être lu/);
    for (const page of [large.html, other.html]) {
      assert.ok(!/^\s*at /m.test(page) && !page.includes('node_modules') && !page.includes('PayloadTooLargeError'), page.slice(0, 2000));
    }
  });

  it('when "Forgot password?" is asked too often from one address, then it answers 429 with Retry-After, the same for an address with an account, and mails nothing more', async () => {
    const merchant = await system.newMerchant();
    const owner = await system.dashboardUser(merchant.merchantId, 'owner', PASSWORD);
    const nobody = address('flood');
    let last = { status: 0, html: '' };
    for (let i = 0; i <= RESET_LIMIT && last.status !== 429; i += 1) last = await forgot(nobody);
    assert.equal(last.status, 429, 'no bound on requests');
    assert.match(last.html, /Too many password reset requests/);
    const known = await forgot(owner);
    assert.equal(known.status, 429);
    assert.equal(known.html, last.html);
    const raw = await fetch(`${system.baseUrl}/dashboard/forgot-password`, { method: 'POST', redirect: 'manual', body: new URLSearchParams({ email: owner }) });
    assert.equal(raw.status, 429);
    assert.ok(Number(raw.headers.get('retry-after')) > 0);
    await settled();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    assert.equal(system.mail.to(owner).length, 0);
  });
});
