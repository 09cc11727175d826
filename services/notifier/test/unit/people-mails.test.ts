/**
 * The mails to the dashboard's people as templates (D20): invitations,
 * password resets and the owners' notices, in each language, escaped, with
 * no secret from an endpoint's URL; and how a notice becomes one mail per
 * owner, beside the buyer's receipt of the same event.
 */
import assert from 'node:assert/strict';
import type { ChangeContext } from '@gateway/messaging';
import type { EventData, Envelope, SessionEventData } from '@gateway/contracts';
import { createLogger } from '@gateway/observability';
import { noticeMails, noticeOf } from '../../src/domain/owner-notices.js';
import { together } from '../../src/messaging/notifier.events.js';
import { publicUrl, renderEndpointDisabled, renderRefundResolved } from '../../src/views/owner-notice-mails.js';
import { renderInvitation, renderPasswordReset } from '../../src/views/people-mails.js';
import { paidSessionData } from '../support/session-events.js';

const AT = new Date('2026-11-26T23:30:00Z');
const log = createLogger({ service: 'notifier-test', level: 'silent' });

const refundUpdated = (over: Partial<SessionEventData> = {}, status: 'succeeded' | 'failed' = 'succeeded'): EventData<'refund.updated'> => {
  const { session } = paidSessionData({ session: { livemode: true } });
  return {
    merchant_id: 'mer_AAAAAAAAAAAAAAAAAAAAAAAA',
    webhook_url: '',
    session: { ...session, refund: { refund_id: 're_1', amount: '20.000', automated_refund: false, reason: 'x', metadata: {}, status } },
    resolved_by: 'operator',
    ...over,
  };
};

describe('Mails to dashboard people (D20)', () => {
  it('when an invitation is rendered, then it names the merchant and the role in the language asked, carries the link as a button and as text, and escapes the name', () => {
    const mail = renderInvitation({ language: 'fr', merchantName: 'Dar <b>Zitouna</b>\r\nBcc: x@evil.example', role: 'developer', link: 'https://pay.example/dashboard/setup?token=abc', expiresAt: AT });
    assert.equal(mail.subject, 'Invitation au tableau de bord de Dar <b>Zitouna</b> Bcc: x@evil.example');
    assert.ok(!/[\r\n]/.test(mail.subject));
    assert.match(mail.text, /avec le rôle développeur/);
    assert.match(mail.text, /^https:\/\/pay\.example\/dashboard\/setup\?token=abc$/m);
    assert.match(mail.html, /href="https:\/\/pay\.example\/dashboard\/setup\?token=abc"/);
    assert.match(mail.html, /Dar &lt;b&gt;Zitouna&lt;\/b&gt;/);
    assert.match(mail.text, /27 novembre 2026 à 00:30/);
  });

  it('when a reset is rendered in Arabic, then the HTML is right to left with a plain-text part; for the console it says so', () => {
    const mail = renderPasswordReset({ language: 'ar', door: 'dashboard', email: 'a@shop.example', link: 'https://pay.example/dashboard/reset?token=t', expiresAt: AT });
    assert.match(mail.html, /<html lang="ar" dir="rtl">/);
    assert.match(mail.html, /<body dir="rtl"[^>]*text-align:right/);
    assert.match(mail.text, /لوحة تحكم المدفوعات/);
    assert.match(renderPasswordReset({ language: 'en', door: 'ops', email: 'o@x.example', link: 'https://x/ops/reset?token=t', expiresAt: AT }).text, /operations console/);
  });

  it("when an endpoint's URL holds a user, a password, a path, a query or a fragment, then the notice shows none of them, only its scheme, host and id", () => {
    assert.equal(publicUrl('https://user:pw@hooks.example:8443/in/path?token=s3cret#frag'), 'https://hooks.example:8443');
    assert.equal(publicUrl('not a url'), '');
    const mail = renderEndpointDisabled({ language: 'en', merchantId: 'mer_1', livemode: false, endpointId: 'we_1', url: 'https://u:p@hooks.slack.example/services/T1/B2/pathS3cret?k=s3cret', disabledAt: AT });
    for (const secret of ['s3cret', 'pathS3cret', 'u:p', '/services/']) assert.ok(!mail.text.includes(secret) && !mail.html.includes(secret), secret);
    assert.match(mail.text, /https:\/\/hooks\.slack\.example/);
    assert.match(mail.text, /we_1/);
    assert.match(mail.text, /Webhooks/);
    assert.match(mail.text, /Mode: test/);
  });

  it('when a resolved refund is rendered, then the subject names the refund and its outcome, the text the amount in TND and the order', () => {
    const ok = renderRefundResolved({ language: 'en', merchantId: 'mer_1', livemode: true, refundId: 're_1', orderNumber: 'DMO-1', amount: '20.000', outcome: 'succeeded', at: AT });
    assert.equal(ok.subject, 'Refund re_1 confirmed');
    assert.match(ok.text, /Amount: TND\s20\.000/u);
    assert.match(ok.text, /Mode: live/);
    assert.equal(renderRefundResolved({ language: 'fr', merchantId: 'mer_1', livemode: true, refundId: 're_1', orderNumber: 'DMO-1', amount: '20.000', outcome: 'failed', at: AT }).subject, 'Remboursement re_1 échoué');
  });

  it("when a notice goes to the owners, then each gets one mail keyed on the event and the owner, in their language, French when none is known; an address with CR/LF gets none", () => {
    const notice = noticeOf('refund.updated', 'evt_1', refundUpdated(), AT);
    assert.ok(notice);
    const mails = noticeMails(notice, [
      { person_id: 'usr_1', email: 'one@shop.example', language: 'ar' },
      { person_id: 'usr_2', email: 'two@shop.example' },
      { person_id: 'usr_3', email: 'three@shop.example\r\nBcc: x@evil.example' },
    ], log);
    assert.deepEqual(mails.map((m) => [m.source, m.recipient, m.language, m.kind]), [
      ['evt_1:usr_1', 'one@shop.example', 'ar', 'refund_resolved_notice'],
      ['evt_1:usr_2', 'two@shop.example', 'fr', 'refund_resolved_notice'],
    ]);
  });

  it('when a refund.updated does not say an operator resolved it, or is not final, then no notice', () => {
    const unsaid = refundUpdated();
    delete unsaid.resolved_by;
    assert.equal(noticeOf('refund.updated', 'evt_1', unsaid, AT), undefined);
    const pending = refundUpdated();
    pending.session.refund = { ...pending.session.refund!, status: 'pending' };
    assert.equal(noticeOf('refund.updated', 'evt_1', pending, AT), undefined);
    assert.equal(noticeOf('session.succeeded', 'evt_1', refundUpdated(), AT), undefined);
  });

  it('when two changes announce the same event, then together applies both once each and answers undefined only when neither applied anything', async () => {
    const applied: string[] = [];
    const change = (name: string, result: string | undefined) => ({
      name,
      events: ['refund.updated' as const],
      fromEvent: () => name,
      apply: async (input: string) => {
        applied.push(input);
        return result;
      },
    });
    const [both] = together([change('a', undefined), change('b', 'done')]);
    assert.ok(both);
    const context: ChangeContext = { correlationId: 'c', at: AT, event: { type: 'refund.updated' } as Envelope };
    const input = both.fromEvent(undefined as never, context);
    assert.notEqual(await both.apply(input as never, context), undefined);
    assert.deepEqual(applied, ['a', 'b']);
    const [neither] = together([change('a', undefined), change('c', undefined)]);
    assert.equal(await neither!.apply(neither!.fromEvent(undefined as never, context) as never, context), undefined);
  });
});
