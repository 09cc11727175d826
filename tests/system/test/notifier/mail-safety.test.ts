/**
 * Mail that cannot be turned against a stranger (D29 on D20), against the real
 * services and a real SMTP server: test-mode receipts are off until the
 * merchant turns them on in Settings, live ones on; a test-mode mail says
 * `[TEST]` in its subject and that no money moved in its body; nothing a buyer
 * typed reaches a mail; one address gets at most MAIL_PER_RECIPIENT_PER_HOUR
 * mails an hour, replicas sharing the count, the rest kept as dropped, counted
 * and logged without the address.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { newId, type Envelope, type PaymentLink, type SessionEventData } from '@gateway/contracts';
import { eventEnvelope, namesFor } from '@gateway/messaging';
import { payOnPage, pollUntil, sessionRequest, TestSystem, Visitor, type CaughtMail, type EventCapture, type Merchant } from '@gateway/testkit';

const PASSWORD = 'correct horse battery staple';
const CARD = '4242424242424242';
/** MAIL_PER_RECIPIENT_PER_HOUR's default. */
const PER_HOUR = 10;
/** What the review typed as a first name on a test payment link. */
const PHISHING = 'Your card was charged 950 TND by mistake … visit https://evil.example/refund';

type MailRow = { kind: string; status: string; text_body: string; html_body: string };

describe('Mail that cannot be turned against a stranger (D29)', function () {
  this.timeout(180_000);
  let system: TestSystem;
  let events: EventCapture;

  before(async () => {
    system = await TestSystem.start();
    events = await system.captureEvents(['session.succeeded']);
  });
  after(async () => {
    await events?.stop();
    await system?.shutdown();
  });

  const address = (tag: string) => `${tag}-${newId('ps').slice(3, 15).toLowerCase()}@example.tn`;

  const rowsOf = (source: string) => system.db.query<MailRow>('SELECT kind, status, text_body, html_body FROM notifier.mails WHERE source = $1', [source]);

  async function settled(): Promise<void> {
    await system.waitForQueueDrained(namesFor(system.prefix).eventQueue('notifier'));
  }

  async function owner(merchant: Merchant): Promise<Visitor> {
    const email = await system.dashboardUser(merchant.merchantId, 'owner', PASSWORD);
    const visitor = new Visitor(system.baseUrl);
    visitor.setCookie('gw_lang=en');
    const signedIn = await visitor.post('/dashboard/sign-in', { email, password: PASSWORD });
    assert.equal(signedIn.status, 303, signedIn.html);
    return visitor;
  }

  /** The `n`th buyer on the link's public page: the form submitted, then the card paid; the session's id, once its success is announced. */
  async function payLink(merchant: Merchant, link: PaymentLink, n: number, buyer: Record<string, string>): Promise<string> {
    const posted = await fetch(link.url, { method: 'POST', body: new URLSearchParams(buyer), redirect: 'manual', headers: { 'accept-language': 'en' } });
    assert.equal(posted.status, 303, await posted.text());
    const paid = await payOnPage(posted.headers.get('location') ?? '', { card_number: CARD }, 'en');
    assert.equal(paid.status, 200);
    const list = await system.api(merchant.testKey).get<{ data: { id: string }[] }>(`/gateway/sessions/list/?merchant_reference=${link.id}-${n}`);
    const id = list.body.data[0]?.id;
    assert.ok(id, list.text);
    await events.waitFor<SessionEventData>('session.succeeded', (e) => e.data.session.id === id, 1, 10_000);
    return id;
  }

  /** A paid session's session.succeeded as the session service announced it: the template of the events published below. */
  async function paidTemplate(merchant: Merchant, email: string): Promise<Envelope<SessionEventData>> {
    const created = await system.api(merchant.testKey).post<{ id: string; checkout_url: string }>('/gateway/sessions/', { ...sessionRequest({ amount: '12.000', email }), locale: 'en' });
    assert.equal(created.status, 201, created.text);
    await payOnPage(created.body.checkout_url, { card_number: CARD }, 'en');
    const [event] = (await events.waitFor<SessionEventData>('session.succeeded', (e) => e.data.session.id === created.body.id, 1, 10_000)) as Envelope<SessionEventData>[];
    assert.ok(event);
    return event;
  }

  /** `count` payments of the template's merchant and mode announced at once, each its own session, all to `email`. */
  function paymentsTo(template: Envelope<SessionEventData>, email: string, count: number, session: Partial<SessionEventData['session']> = {}): Envelope<SessionEventData>[] {
    return Array.from({ length: count }, () =>
      eventEnvelope('session.succeeded', { ...template.data, session: { ...template.data.session, ...session, id: newId('ps'), buyer: { ...template.data.session.buyer, email } } }, 'burst'),
    );
  }

  const testReceipts = (merchant: Merchant, enabled: boolean) => system.send('receipts.settings.set', { merchant_id: merchant.merchantId, mode: 'test', receipts_enabled: enabled });

  function assertNoBuyerText(mail: CaughtMail, typed: readonly string[]): void {
    const parts = [mail.headerBlock, mail.parsed.text ?? '', String(mail.parsed.html), mail.parsed.subject ?? ''];
    for (const text of typed) for (const part of parts) assert.ok(!part.includes(text), `"${text}" in the mail: ${part.slice(0, 400)}`);
  }

  it('when a stranger on a test payment link types a phishing text as first name and a victim address and pays with 4242, then the victim gets nothing; once the merchant turns test receipts on, a [TEST] mail saying no money moved, without the text', async () => {
    const merchant = await system.newMerchant();
    const link = (await system.api(merchant.testKey).post<PaymentLink>('/gateway/payment_links/', { description: 'Gift card', amount: '950.000', locale: 'en' })).body;
    const victim = address('victim');
    const stranger = { first_name: PHISHING, last_name: 'Refund desk', email: victim };

    const unseen = await payLink(merchant, link, 1, stranger);
    await settled();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    assert.equal(system.mail.to(victim).length, 0, 'the victim got a test receipt');
    assert.deepEqual(await rowsOf(unseen), [], 'a test receipt written while test receipts are off');

    const visitor = await owner(merchant);
    const settings = await visitor.get('/dashboard/settings');
    assert.match(settings.html, /data-receipts="off"/, 'test receipts on before the merchant turned them on');
    assert.match(settings.html, /In test mode, receipts are off until you turn them on\. A test receipt’s subject starts with \[TEST\]/);
    const on = await visitor.post('/dashboard/settings/receipts', { _csrf: await visitor.csrf('/dashboard/settings'), receipts_enabled: 'on' });
    assert.equal(on.status, 200, on.html);
    assert.match(on.html, /data-receipts="on"/);

    const seen = await payLink(merchant, link, 2, stranger);
    const [mail] = await system.mail.waitFor((m) => m.envelope.to.includes(victim));
    assert.ok(mail);
    assert.match(mail.parsed.subject ?? '', /^\[TEST\] Your receipt from Test Shop \d+ — order /);
    const text = mail.parsed.text ?? '';
    assert.match(text, /^Test mode: no money moved\. /m);
    assert.match(String(mail.parsed.html), /<p[^>]*>Test mode: no money moved\. /);
    assert.match(text, /^Hello,$/m);
    assert.match(text, /^Amount paid: TND\s950\.000$/mu);
    assertNoBuyerText(mail, ['evil.example', 'charged 950', 'Your card was', 'Refund desk']);
    const to = mail.parsed.to;
    assert.deepEqual((Array.isArray(to) ? to : [to]).flatMap((list) => list?.value.map((entry) => [entry.name, entry.address]) ?? []), [['', victim]], 'a name beside the address');
    const [row] = await rowsOf(seen);
    assert.ok(row && !row.text_body.includes('evil.example') && !row.html_body.includes('evil.example'), 'the stored mail holds the text');

    // Live mode is untouched: its receipts stay on without the merchant doing anything.
    const live = await visitor.post('/dashboard/mode', { _csrf: await visitor.csrf('/dashboard/settings'), mode: 'live', back: '/dashboard/settings' });
    assert.equal(live.status, 303);
    const livePage = (await visitor.get('/dashboard/settings')).html;
    assert.match(livePage, /data-receipts="on"/);
    assert.doesNotMatch(livePage, /In test mode, receipts are off/);
  });

  it('when a merchant has turned nothing on, then test payments write no receipt and live ones do, without [TEST]', async () => {
    const merchant = await system.newMerchant();
    const template = await paidTemplate(merchant, address('template'));
    await settled();
    assert.deepEqual(await rowsOf(template.data.session.id), [], 'a test receipt by default');
    const buyer = address('live');
    const [livePayment] = paymentsTo(template, buyer, 1, { livemode: true });
    assert.ok(livePayment);
    await system.publishEvents([livePayment]);
    const [mail] = await system.mail.waitFor((m) => m.envelope.to.includes(buyer));
    assert.match(mail?.parsed.subject ?? '', /^Your receipt from /);
    assert.doesNotMatch(mail?.parsed.text ?? '', /no money moved/);
  });

  it('when a test refund is made with test receipts on, then its receipt is marked [TEST] in three languages, text and HTML', async () => {
    const merchant = await system.newMerchant({ limits: { account: 1000, create: 1000, refund: 1000 } });
    await testReceipts(merchant, true);
    const api = system.api(merchant.testKey);
    const expected = { en: /^\[TEST\] Your refund from /, fr: /^\[TEST\] Votre remboursement /, ar: /^\[TEST\] استرداد من / };
    const notice = { en: 'no money moved', fr: 'aucun argent n’a été débité ni versé', ar: 'لم تُنقل أي أموال' };
    for (const language of ['en', 'fr', 'ar'] as const) {
      const buyer = address(`refund-${language}`);
      const created = await api.post<{ id: string; checkout_url: string }>('/gateway/sessions/', { ...sessionRequest({ amount: '30.000', email: buyer }), locale: language });
      await payOnPage(created.body.checkout_url, { card_number: CARD }, language);
      const refund = await api.post(`/gateway/sessions/${created.body.id}/refund/`, { refund_type: 'PARTIAL', amount: '10.000', reason: 'Returned' });
      assert.equal(refund.status, 200, refund.text);
      const mails = await system.mail.waitFor((m) => m.envelope.to.includes(buyer), 2);
      const refundMail = mails.find((m) => expected[language].test(m.parsed.subject ?? ''));
      assert.ok(refundMail, mails.map((m) => m.parsed.subject).join(' | '));
      assert.ok((refundMail.parsed.text ?? '').includes(notice[language]), refundMail.parsed.text);
      assert.ok(String(refundMail.parsed.html).includes(notice[language]));
      assert.ok(mails.every((m) => (m.parsed.subject ?? '').startsWith('[TEST] ')), 'the payment receipt unmarked');
    }
  });

  it(`when ${PER_HOUR + 2} mails go to one address within the hour, then ${PER_HOUR} are sent and the rest kept as dropped, never sent, counted, and logged without the address; a dropped invitation keeps no link`, async () => {
    const merchant = await system.newMerchant();
    const template = await paidTemplate(merchant, address('template'));
    await testReceipts(merchant, true);
    const flooded = address('flooded');
    // The same mailbox, however its address is written.
    const burst = paymentsTo(template, flooded, PER_HOUR + 2).map((event, i) => (i % 2 === 0 ? event : { ...event, data: { ...event.data, session: { ...event.data.session, buyer: { ...event.data.session.buyer, email: flooded.toUpperCase() } } } }));
    await system.publishEvents(burst);
    await system.mail.waitFor((m) => m.envelope.to.includes(flooded), PER_HOUR, 30_000);
    await settled();
    const statuses = async () => (await system.db.query<{ status: string }>('SELECT status FROM notifier.mails WHERE lower(recipient) = $1 ORDER BY status', [flooded])).map((r) => r.status);
    await pollUntil(async () => (await statuses()).filter((s) => s === 'sent').length === PER_HOUR, 10_000, 'the mails marked sent');
    assert.deepEqual(await statuses(), [...Array(2).fill('dropped'), ...Array(PER_HOUR).fill('sent')]);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    assert.equal(system.mail.to(flooded).length, PER_HOUR, 'more than the hour allows');

    const reference = newId('ml').slice(3);
    const token = `token${newId('ps').slice(3)}`;
    await system.send('mail.invitation', { reference, email: flooded, language: 'en', link: `${system.baseUrl}/dashboard/setup?token=${token}`, expires_at: new Date(Date.now() + 86_400_000).toISOString(), merchant_id: merchant.merchantId, merchant_name: 'Shop', role: 'viewer' });
    const [invitation] = await rowsOf(reference);
    assert.equal(invitation?.status, 'dropped');
    assert.ok(!invitation.text_body.includes(token) && !invitation.html_body.includes(token), 'a dropped invitation keeps its link');

    assert.match(await system.metricsOf('notifier'), /^gateway_mails_dropped_total\{[^}]*kind="payment_receipt"[^}]*\} [2-9]/m);
    const logged = readFileSync(join(system.logDir, 'notifier.log'), 'utf8').split('\n').filter((line) => line.includes('"msg":"mail dropped'));
    assert.ok(logged.length >= 3, `${logged.length} drops logged`);
    for (const line of logged) assert.ok(!line.toLowerCase().includes(flooded.split('@')[0] ?? flooded), `the address in the log: ${line}`);
    assert.ok(logged.some((line) => line.includes('"recipientDomain":"example.tn"')), logged.join('\n'));
  });

  it(`when two notifier replicas write mails to one address at once, then they share the count: ${PER_HOUR} go, the rest are dropped`, async () => {
    const merchant = await system.newMerchant();
    const template = await paidTemplate(merchant, address('template'));
    await testReceipts(merchant, true);
    await system.startService('notifier', 'notifier-2');
    try {
      const flooded = address('shared');
      await system.publishEvents(paymentsTo(template, flooded, PER_HOUR * 3));
      await system.mail.waitFor((m) => m.envelope.to.includes(flooded), PER_HOUR, 30_000);
      await settled();
      await pollUntil(async () => (await system.db.query('SELECT 1 FROM notifier.mails WHERE recipient = $1', [flooded])).length === PER_HOUR * 3, 10_000, 'every mail written');
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      assert.equal(system.mail.to(flooded).length, PER_HOUR);
      const dropped = await system.db.query("SELECT 1 FROM notifier.mails WHERE recipient = $1 AND status = 'dropped'", [flooded]);
      assert.equal(dropped.length, PER_HOUR * 2);
    } finally {
      await system.stopService('notifier-2');
    }
  });
});
