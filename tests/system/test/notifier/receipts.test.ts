/**
 * Buyer receipts (D20) against the real services and a real SMTP server (the
 * system's mail catcher): a payment makes exactly one receipt in the session's
 * language, a refund its own, a redelivered event no second one; a mail
 * server that is down delays the receipt, never the payment; a buyer's name or
 * address never adds a header. The merchant here has test receipts on (D29:
 * off until it turns them on), so each is marked [TEST].
 */
import assert from 'node:assert/strict';
import { newId, type Envelope, type SessionEventData } from '@gateway/contracts';
import { eventEnvelope, namesFor } from '@gateway/messaging';
import { payOnPage, pollUntil, sessionRequest, TestSystem, type ApiClient, type CaughtMail, type EventCapture, type Merchant } from '@gateway/testkit';

type Detail = { id: string; status: string; order_number: string; checkout_url: string };
type MailRow = { kind: string; status: string; attempts: number; language: string };

const CARD = '4242424242424242';

describe('Buyer receipts by mail (D20)', function () {
  this.timeout(120_000);
  let system: TestSystem;
  let events: EventCapture;
  let merchant: Merchant;
  let api: ApiClient;
  let merchantName: string;

  before(async () => {
    system = await TestSystem.start();
    events = await system.captureEvents(['session.succeeded']);
    merchant = await system.newMerchant({ limits: { account: 10_000, create: 10_000, refund: 10_000 } });
    api = system.api(merchant.testKey);
    // As the dashboard's Settings page turns them on.
    await system.send('receipts.settings.set', { merchant_id: merchant.merchantId, mode: 'test', receipts_enabled: true });
    merchantName = (await system.db.query<{ name: string }>('SELECT name FROM api_gateway.merchants WHERE id = $1', [merchant.merchantId]))[0]?.name ?? '';
    assert.notEqual(merchantName, '');
  });
  after(async () => {
    await events?.stop();
    await system?.shutdown();
  });

  const buyerEmail = () => `buyer-${newId('ps').slice(3, 15).toLowerCase()}@example.tn`;

  async function paid(email: string, extra: Record<string, unknown> = {}, acceptLanguage = 'en', card = CARD): Promise<Detail> {
    const created = await api.post<Detail>('/gateway/sessions/', { ...sessionRequest({ amount: '125.500', email }), ...extra });
    assert.equal(created.status, 201, created.text);
    await payOnPage(created.body.checkout_url, { card_number: card }, acceptLanguage);
    const detail = (await api.get<Detail>(`/gateway/sessions/${created.body.id}/`)).body;
    assert.equal(detail.status, 'SUCCEEDED');
    return detail;
  }

  const mailsOf = (source: string) => system.db.query<MailRow>('SELECT kind, status, attempts, language FROM notifier.mails WHERE source = $1', [source]);

  function assertNoCardNumber(mail: CaughtMail): void {
    assert.ok(!mail.raw.includes(CARD), 'the raw message holds the card number');
    for (const part of [mail.parsed.text ?? '', String(mail.parsed.html), mail.parsed.subject ?? '']) assert.ok(!/\d{13,}/.test(part.replace(/[ -]/g, '')), 'a card-like number in the mail');
  }

  it('when a buyer pays a French session, then exactly one receipt reaches the buyer over SMTP, in French, with the merchant and order number in its subject, the amount, the card brand and last four, and no card number', async () => {
    const email = buyerEmail();
    const session = await paid(email, { locale: 'fr' });
    const [mail] = await system.mail.waitFor((m) => m.envelope.to.includes(email));
    assert.ok(mail);
    assert.ok(mail.parsed.subject?.includes(merchantName), mail.parsed.subject);
    assert.ok(mail.parsed.subject?.includes(session.order_number), mail.parsed.subject);
    assert.match(mail.parsed.subject ?? '', /^\[TEST\] Votre reçu/);
    const text = mail.parsed.text ?? '';
    assert.match(text, /Montant payé: 125,500\s?TND/u);
    assert.match(text, new RegExp(`Numéro de commande: ${session.order_number}`));
    assert.match(text, /VISA •••• 4242/);
    assert.match(String(mail.parsed.html), /<html lang="fr" dir="ltr">/);
    assert.match(mail.headerBlock, /^Auto-Submitted: auto-generated$/m);
    assertNoCardNumber(mail);
    await pollUntil(async () => (await mailsOf(session.id))[0]?.status === 'sent', 5_000, 'the receipt marked sent');
    assert.deepEqual(await mailsOf(session.id), [{ kind: 'payment_receipt', status: 'sent', attempts: 1, language: 'fr' }]);
    assert.equal(system.mail.to(email).length, 1, 'one receipt');
  });

  it('when a buyer pays an English session converted from euros, then the English receipt shows the amount in TND and the euro amount asked', async () => {
    const { merchantId } = merchant;
    await system.admin(['rate', 'set', merchantId, '--mode', 'test', '--currency', 'EUR', '--rate', '3.3325']);
    const email = buyerEmail();
    const session = await paid(email, { locale: 'en', amount: '10.00', currency: 'EUR' });
    const [mail] = await system.mail.waitFor((m) => m.envelope.to.includes(email));
    assert.ok(mail);
    assert.match(mail.parsed.subject ?? '', new RegExp(`^\\[TEST\\] Your receipt from ${merchantName} — order ${session.order_number}$`));
    const text = mail.parsed.text ?? '';
    assert.match(text, /Amount paid: TND\s33\.325/);
    assert.match(text, /Original amount: EUR\s10\.00/);
    assert.match(text, /Date: .*20\d\d/);
    assertNoCardNumber(mail);
  });

  it('when a buyer pays an Arabic session, then the receipt is in Arabic, its HTML right to left, with a plain-text part', async () => {
    const email = buyerEmail();
    const session = await paid(email, { locale: 'ar' });
    const [mail] = await system.mail.waitFor((m) => m.envelope.to.includes(email));
    assert.ok(mail);
    assert.ok(mail.parsed.subject?.startsWith('[TEST] إيصالك من'), mail.parsed.subject);
    assert.ok(mail.parsed.subject?.includes(session.order_number));
    assert.match(String(mail.parsed.html), /<html lang="ar" dir="rtl">/);
    assert.match(String(mail.parsed.html), /<body dir="rtl"/);
    assert.match(mail.parsed.text ?? '', /المبلغ المدفوع: \u200f?125,500\s?TND/u);
    assert.match(mail.parsed.text ?? '', /4242/);
    assertNoCardNumber(mail);
  });

  it("when a session left to the buyer's browser (locale auto) is paid on the Arabic page, then the receipt is in Arabic; on the English page, in English", async () => {
    const arabic = buyerEmail();
    await paid(arabic, {}, 'ar');
    const english = buyerEmail();
    await paid(english, { locale: 'auto' }, 'en-GB,en;q=0.9');
    const [ar] = await system.mail.waitFor((m) => m.envelope.to.includes(arabic));
    const [en] = await system.mail.waitFor((m) => m.envelope.to.includes(english));
    assert.match(String(ar?.parsed.html), /<html lang="ar" dir="rtl">/);
    assert.match(en?.parsed.subject ?? '', /^\[TEST\] Your receipt from /);
  });

  it('when a payment is refunded, then the buyer gets a refund receipt with the refunded amount, beside the payment receipt', async () => {
    const email = buyerEmail();
    const session = await paid(email, { locale: 'en' });
    const refund = await api.post<{ refund_id: string }>(`/gateway/sessions/${session.id}/refund/`, { refund_type: 'PARTIAL', amount: '30.250', reason: 'Returned' });
    assert.equal(refund.status, 200, refund.text);
    const mails = await system.mail.waitFor((m) => m.envelope.to.includes(email), 2);
    const refundMail = mails.find((m) => m.parsed.subject?.startsWith('[TEST] Your refund'));
    assert.ok(refundMail, mails.map((m) => m.parsed.subject).join(' | '));
    assert.ok(refundMail.parsed.subject?.includes(session.order_number));
    assert.match(refundMail.parsed.text ?? '', /Amount refunded: TND\s30\.250/);
    assertNoCardNumber(refundMail);
    assert.deepEqual((await mailsOf(refund.body.refund_id)).map((row) => row.kind), ['refund_receipt']);
  });

  it('when a refund waits for an operator, then no refund receipt goes while it is pending, and one goes once it is resolved as succeeded; none for one resolved as failed', async () => {
    const email = buyerEmail();
    const session = await paid(email, { locale: 'en' }, 'en', '4000000000005126');
    const kept = await api.post<{ refund_id: string; automated_refund: boolean }>(`/gateway/sessions/${session.id}/refund/`, { refund_type: 'PARTIAL', amount: '20.000', reason: 'Returned' });
    const lost = await api.post<{ refund_id: string; automated_refund: boolean }>(`/gateway/sessions/${session.id}/refund/`, { refund_type: 'PARTIAL', amount: '10.000', reason: 'Damaged' });
    assert.deepEqual([kept.status, kept.body.automated_refund, lost.status, lost.body.automated_refund], [200, false, 200, false], kept.text);
    await system.waitForQueueDrained(namesFor(system.prefix).eventQueue('notifier'));
    assert.deepEqual(await mailsOf(kept.body.refund_id), [], 'a receipt for a pending refund');
    await system.admin(['refund', 'resolve', kept.body.refund_id, '--as', 'succeeded']);
    await system.admin(['refund', 'resolve', lost.body.refund_id, '--as', 'failed']);
    const [mail] = await system.mail.waitFor((m) => m.envelope.to.includes(email) && (m.parsed.subject ?? '').startsWith('[TEST] Your refund'));
    assert.match(mail?.parsed.text ?? '', /Amount refunded: TND\s20\.000/u);
    await system.waitForQueueDrained(namesFor(system.prefix).eventQueue('notifier'));
    assert.deepEqual(await mailsOf(lost.body.refund_id), [], 'a receipt for a failed refund');
    assert.equal(system.mail.to(email).filter((m) => (m.parsed.subject ?? '').startsWith('[TEST] Your refund')).length, 1);
  });

  it('when a session.succeeded event is delivered again, then no second receipt is written or sent', async () => {
    const email = buyerEmail();
    const session = await paid(email, { locale: 'fr' });
    await system.mail.waitFor((m) => m.envelope.to.includes(email));
    const [original] = await events.waitFor<SessionEventData>('session.succeeded', (e) => e.data.session.id === session.id, 1, 10_000);
    assert.ok(original);
    // The same event twice more (as the broker redelivers it), and a new event announcing the same payment.
    await system.publishEvents([original, original, eventEnvelope('session.succeeded', original.data, 'redelivery')]);
    await system.waitForQueueDrained(namesFor(system.prefix).eventQueue('notifier'));
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    assert.equal(system.mail.to(email).length, 1, 'one receipt');
    assert.equal((await mailsOf(session.id)).length, 1);
  });

  it("when a buyer's name carries CR/LF and a header, then the receipt carries no extra header; an address with CR/LF gets no mail at all", async () => {
    const email = buyerEmail();
    const session = await paid(email, { locale: 'en' });
    await system.mail.waitFor((m) => m.envelope.to.includes(email));
    const [template] = (await events.waitFor<SessionEventData>('session.succeeded', (e) => e.data.session.id === session.id, 1, 10_000)) as Envelope<SessionEventData>[];
    assert.ok(template);
    const named = buyerEmail();
    const injectedName = eventEnvelope(
      'session.succeeded',
      { ...template.data, session: { ...template.data.session, id: newId('ps'), buyer: { ...template.data.session.buyer, first_name: 'Amina\r\nBcc: thief@evil.example', last_name: 'X\nX-Injected: yes', email: named } } },
      'injection',
    );
    const injectedAddress = eventEnvelope(
      'session.succeeded',
      { ...template.data, session: { ...template.data.session, id: newId('ps'), buyer: { ...template.data.session.buyer, email: 'victim@example.tn\r\nBcc: thief@evil.example' } } },
      'injection',
    );
    await system.publishEvents([injectedName, injectedAddress]);
    const [mail] = await system.mail.waitFor((m) => m.envelope.to.includes(named));
    assert.ok(mail);
    assert.doesNotMatch(mail.headerBlock, /^(Bcc|X-Injected):/im, mail.headerBlock);
    assert.deepEqual(mail.envelope.to, [named]);
    assert.equal(mail.parsed.headers.get('bcc'), undefined);
    assert.equal(mail.parsed.headers.get('x-injected'), undefined);
    await system.waitForQueueDrained(namesFor(system.prefix).eventQueue('notifier'));
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    // The To header holds one address, the buyer's, and no name beside it (D29).
    const to = mail.parsed.to;
    assert.deepEqual((Array.isArray(to) ? to : [to]).flatMap((list) => list?.value.map((entry) => entry.address) ?? []), [named]);
    assert.equal(system.mail.to('thief@evil.example').length, 0);
    assert.equal(system.mail.to('victim@example.tn').length, 0);
    assert.equal((await mailsOf(injectedAddress.data.session.id)).length, 0, 'no mail written for an address with CR/LF');
  });

  it('when two notifier replicas share a burst of receipts, then every buyer gets exactly one mail', async () => {
    const email = buyerEmail();
    const session = await paid(email, { locale: 'fr' });
    const [template] = (await events.waitFor<SessionEventData>('session.succeeded', (e) => e.data.session.id === session.id, 1, 10_000)) as Envelope<SessionEventData>[];
    assert.ok(template);
    await system.startService('notifier', 'notifier-2');
    try {
      const buyers = Array.from({ length: 40 }, () => buyerEmail());
      await system.publishEvents(
        buyers.map((to) => eventEnvelope('session.succeeded', { ...template.data, session: { ...template.data.session, id: newId('ps'), buyer: { ...template.data.session.buyer, email: to } } }, 'burst')),
      );
      await system.mail.waitFor((m) => buyers.some((to) => m.envelope.to.includes(to)), buyers.length, 30_000);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      assert.deepEqual(buyers.map((to) => system.mail.to(to).length), buyers.map(() => 1));
    } finally {
      await system.stopService('notifier-2');
    }
  });

  it('when a mail fails at its last attempt (MAIL_MAX_ATTEMPTS, 30), then it is marked failed and never sent, even once the server is back', async () => {
    const email = buyerEmail();
    await system.mail.stop();
    let id = '';
    try {
      id = (await paid(email, { locale: 'en' })).id;
      await pollUntil(async () => ((await mailsOf(id))[0]?.attempts ?? 0) >= 1, 10_000, 'a failed attempt');
      // As if it had failed 28 times more: the next failure is its 30th.
      await system.db.query(`UPDATE notifier.mails SET attempts = 29, next_attempt_at = now() WHERE source = $1 AND status = 'pending'`, [id]);
      await pollUntil(async () => (await mailsOf(id))[0]?.status === 'failed', 10_000, 'the mail given up');
    } finally {
      await system.mail.resume();
    }
    const [row] = await mailsOf(id);
    assert.equal(row?.status, 'failed');
    assert.ok((row?.attempts ?? 0) >= 30, `${row?.attempts} attempts`);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    assert.equal(system.mail.to(email).length, 0);
    assert.match(await system.metricsOf('notifier'), /^gateway_mail_attempts_total\{[^}]*outcome="failed"[^}]*\} [1-9]/m);
  });

  it('when a sent receipt is older than MAIL_RETENTION_DAYS (30), then the retention sweep deletes it; a pending mail is kept however old', async () => {
    const sentTo = buyerEmail();
    const sent = await paid(sentTo, { locale: 'en' });
    await pollUntil(async () => (await mailsOf(sent.id))[0]?.status === 'sent', 10_000, 'the receipt sent');
    const waitingTo = buyerEmail();
    const waiting = await paid(waitingTo, { locale: 'en' });
    await pollUntil(async () => (await mailsOf(waiting.id))[0]?.status === 'sent', 10_000, 'the second receipt sent');
    // The second stands for a mail still to go: pending, due far ahead.
    await system.db.query(`UPDATE notifier.mails SET status = 'pending', next_attempt_at = now() + interval '1 day' WHERE source = $1`, [waiting.id]);
    await system.db.query(`UPDATE notifier.mails SET created_at = now() - interval '31 days' WHERE source = ANY($1)`, [[sent.id, waiting.id]]);
    await pollUntil(async () => (await mailsOf(sent.id)).length === 0, 10_000, 'the old sent receipt deleted');
    assert.deepEqual((await mailsOf(waiting.id)).map((row) => row.status), ['pending']);
  });

  it('when the mail server is down during a payment, then the payment completes and its receipt arrives once the server is back', async () => {
    const email = buyerEmail();
    await system.mail.stop();
    let session: Detail;
    try {
      const paying = (session = await paid(email, { locale: 'fr' }));
      await pollUntil(async () => ((await mailsOf(paying.id))[0]?.attempts ?? 0) >= 1, 10_000, 'a failed attempt');
      const [row] = await mailsOf(paying.id);
      assert.equal(row?.status, 'pending');
      assert.equal(system.mail.to(email).length, 0);
    } finally {
      await system.mail.resume();
    }
    const [mail] = await system.mail.waitFor((m) => m.envelope.to.includes(email), 1, 20_000);
    const id = session.id;
    assert.ok(mail?.parsed.subject?.includes(session.order_number));
    await pollUntil(async () => (await mailsOf(id))[0]?.status === 'sent', 5_000, 'the receipt marked sent');
    assert.equal(system.mail.to(email).length, 1);
    const metrics = await system.metricsOf('notifier');
    for (const outcome of ['retry', 'sent']) assert.match(metrics, new RegExp(`^gateway_mail_attempts_total\\{[^}]*outcome="${outcome}"[^}]*\\} [1-9]`, 'm'), outcome);
  });
});
