/**
 * Mail that cannot be turned against a stranger (D29), as templates: a
 * test-mode mail marked `[TEST]` and saying no money moved, in three
 * languages, text and HTML; nothing the buyer typed in a receipt; the
 * settings and the log's view of an address.
 */
import assert from 'node:assert/strict';
import { LANGUAGES } from '@gateway/i18n';
import { createLogger } from '@gateway/observability';
import { receiptMail } from '../../src/domain/write-receipt.js';
import { domainOf } from '../../src/domain/write-mail.js';
import { renderEndpointDisabled, renderRefundResolved } from '../../src/views/owner-notice-mails.js';
import { renderInvitation, renderPasswordReset } from '../../src/views/people-mails.js';
import { renderReceipt } from '../../src/views/receipt-mail.js';
import { loadNotifierConfig } from '../../src/config.js';
import { BUYER, PAID_AT, paidSessionData } from '../support/session-events.js';

const AT = PAID_AT;
const log = createLogger({ service: 'notifier-test', level: 'silent' });
const PHISHING = 'Your card was charged 950 TND by mistake … visit https://evil.example/refund';
const NO_MONEY_MOVED = { en: 'Test mode: no money moved.', fr: 'Mode test : aucun argent n’a été débité ni versé.', ar: 'وضع تجريبي: لم تُنقل أي أموال.' };

const receipt = (livemode: boolean, language: 'fr' | 'en' | 'ar' = 'en', kind: 'payment_receipt' | 'refund_receipt' = 'payment_receipt') =>
  renderReceipt({ kind, language, livemode, merchantName: 'Dar Zitouna', orderNumber: 'DMO-7K2M9Q', amount: '33.325', card: { brand: 'visa', lastFour: '4242' }, at: AT });

describe('Test-mode mails (D29)', () => {
  it('when a test-mode receipt is rendered in each language, then its subject starts with [TEST] and its text and HTML open by saying no money moved', () => {
    for (const language of LANGUAGES) {
      for (const kind of ['payment_receipt', 'refund_receipt'] as const) {
        const live = receipt(true, language, kind);
        const test = receipt(false, language, kind);
        assert.equal(test.subject, `[TEST] ${live.subject}`);
        assert.ok(test.text.startsWith(`${NO_MONEY_MOVED[language]} `), test.text);
        assert.match(test.html, new RegExp(`<body[^>]*>\\n<p [^>]*>${NO_MONEY_MOVED[language]} `));
        assert.ok(!live.subject.includes('[TEST]') && !live.text.includes(NO_MONEY_MOVED[language]) && !live.html.includes(NO_MONEY_MOVED[language]), `${language} live marked`);
      }
    }
  });

  it("when an owner's notice is about test mode, then it is marked as a test receipt is; a live one, an invitation and a reset are not", () => {
    const disabled = (livemode: boolean) => renderEndpointDisabled({ language: 'fr', merchantId: 'mer_1', livemode, endpointId: 'we_1', url: 'https://hooks.example/x', disabledAt: AT });
    assert.equal(disabled(false).subject, '[TEST] Point de réception de webhooks désactivé');
    assert.ok(disabled(false).text.startsWith(NO_MONEY_MOVED.fr));
    assert.equal(disabled(true).subject, 'Point de réception de webhooks désactivé');
    const resolved = (livemode: boolean) => renderRefundResolved({ language: 'ar', merchantId: 'mer_1', livemode, refundId: 're_1', orderNumber: 'DMO-1', amount: '20.000', outcome: 'succeeded', at: AT });
    assert.equal(resolved(false).subject, '[TEST] تأكيد الاسترداد re_1');
    assert.ok(resolved(false).html.includes(NO_MONEY_MOVED.ar));
    assert.ok(!resolved(true).text.includes(NO_MONEY_MOVED.ar));
    const invitation = renderInvitation({ language: 'en', merchantName: 'Dar', role: 'viewer', link: 'https://x/dashboard/setup?token=t', expiresAt: AT });
    const reset = renderPasswordReset({ language: 'en', door: 'dashboard', email: 'a@shop.example', link: 'https://x/dashboard/reset?token=t', expiresAt: AT });
    for (const mail of [invitation, reset]) assert.ok(!mail.subject.startsWith('[TEST]') && !mail.text.includes(NO_MONEY_MOVED.en));
  });
});

describe('No buyer-typed text in a mail (D29)', () => {
  it("when a buyer typed a phishing text as first and last name, then the receipt's subject, text, HTML and recipient carry none of it: the greeting names no one", () => {
    for (const language of LANGUAGES) {
      const data = paidSessionData({ session: { buyer: { ...BUYER, first_name: PHISHING, last_name: 'Refund desk <a href="https://evil.example">' } }, receipt: { merchant_name: 'Dar Zitouna', locale: language } });
      const mail = receiptMail('session.succeeded', data, AT, log);
      assert.ok(mail);
      for (const part of [mail.subject, mail.text, mail.html, JSON.stringify(mail)]) {
        for (const typed of ['evil.example', 'charged 950', 'Refund desk', BUYER.first_name]) assert.ok(!part.includes(typed), `${language}: "${typed}" in ${part.slice(0, 200)}`);
      }
      assert.equal(mail.recipient, BUYER.email);
      assert.ok(mail.text.includes(receipt(true, language).text.split('\n')[0] ?? '?'), 'the greeting of every receipt');
      assert.ok(mail.text.includes('Dar Zitouna'), "the merchant's name stays");
    }
  });
});

describe('The address in a log (D29)', () => {
  it('when a dropped mail is logged, then its address shows by its domain only', () => {
    assert.equal(domainOf('Amina.Ben-Salah@Example.TN'), 'example.tn');
  });

  it('when MAIL_PER_RECIPIENT_PER_HOUR is not set, then one address gets at most 10 mails an hour; 0 is refused', () => {
    assert.equal(loadNotifierConfig({ DATABASE_URL: 'postgres://x@h/db' }).mailPerRecipientPerHour, 10);
    assert.equal(loadNotifierConfig({ DATABASE_URL: 'postgres://x@h/db', MAIL_PER_RECIPIENT_PER_HOUR: '3' }).mailPerRecipientPerHour, 3);
    assert.throws(() => loadNotifierConfig({ DATABASE_URL: 'postgres://x@h/db', MAIL_PER_RECIPIENT_PER_HOUR: '0' }), /MAIL_PER_RECIPIENT_PER_HOUR/);
  });
});
