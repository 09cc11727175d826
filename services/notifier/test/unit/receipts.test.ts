/**
 * The buyer's receipts as templates (D20): language, direction, amounts,
 * card, Tunis time, escaping; and the header rule, without servers.
 */
import assert from 'node:assert/strict';
import type { SessionEventData } from '@gateway/contracts';
import { createLogger } from '@gateway/observability';
import { checkAddress, checkMailbox, headerText, withoutCardNumbers } from '../../src/domain/header-safety.js';
import { receiptLanguage } from '../../src/domain/receipts.js';
import { nextAttemptDelay } from '../../src/domain/send-due-mails.js';
import { receiptMail } from '../../src/domain/write-receipt.js';
import { renderReceipt } from '../../src/views/receipt-mail.js';
import { loadNotifierConfig } from '../../src/config.js';
import { BUYER, PAID_AT, paidSessionData, receiptOf } from '../support/session-events.js';

const AT = PAID_AT;

const receipt = receiptOf;

const eventData = (over: { buyer?: Partial<SessionEventData['session']['buyer']>; locale?: 'fr' | 'en' | 'ar' | 'auto'; receipt?: boolean } = {}): SessionEventData =>
  paidSessionData({
    session: { buyer: { ...BUYER, ...over.buyer }, original: { amount: '10.00', currency: 'EUR', rate: '3.332500' } },
    receipt: over.receipt === false ? false : { merchant_name: 'Dar Zitouna', locale: over.locale ?? 'en' },
  });

const log = createLogger({ service: 'notifier-test', level: 'silent' });

describe('Buyer receipt templates (D20)', () => {
  it('when a French payment receipt is rendered, then the subject names the merchant and the order, the text has the amount in TND, the card and the date in Tunis time', () => {
    const mail = renderReceipt(receipt());
    assert.equal(mail.subject, 'Votre reçu Dar Zitouna — commande DMO-7K2M9Q');
    assert.match(mail.text, /^Bonjour,$/m);
    assert.match(mail.text, /^Montant payé: 1\s234,500\sTND$/mu);
    assert.match(mail.text, /^Carte: VISA •••• 4242$/m);
    // 23:30 UTC is 00:30 the next day in Tunis.
    assert.match(mail.text, /^Date: 27 novembre 2026 à 00:30$/m);
    assert.match(mail.html, /^<html lang="fr" dir="ltr">$/m);
  });

  it('when an Arabic receipt is rendered, then its HTML is right to left and its text part is Arabic', () => {
    const mail = renderReceipt(receipt({ language: 'ar' }));
    assert.match(mail.html, /<html lang="ar" dir="rtl">/);
    assert.match(mail.html, /<body dir="rtl"[^>]*text-align:right/);
    assert.ok(mail.subject.startsWith('إيصالك من Dar Zitouna'));
    assert.match(mail.text, /المبلغ المدفوع: \u200f?1\.234,500\sTND/u);
  });

  it('when the amount was converted, then the receipt shows the original amount in its currency; a refund receipt shows the refunded amount', () => {
    const paid = renderReceipt(receipt({ language: 'en', amount: '33.325', original: { amount: '10.00', currency: 'EUR' } }));
    assert.match(paid.text, /^Amount paid: TND\s33\.325$/mu);
    assert.match(paid.text, /^Original amount: EUR\s10\.00$/mu);
    const refunded = renderReceipt(receipt({ language: 'en', kind: 'refund_receipt', amount: '5.250' }));
    assert.equal(refunded.subject, 'Your refund from Dar Zitouna — order DMO-7K2M9Q');
    assert.match(refunded.text, /^Amount refunded: TND\s5\.250$/mu);
  });

  it('when a name carries markup, control characters or a card number, then the HTML escapes it, the subject has no line break, and no card number is shown', () => {
    const mail = renderReceipt(receipt({ merchantName: 'Shop 4242 4242 4242 4242 <script>alert(1)</script>\r\nBcc: x@y.tn' }));
    assert.ok(!mail.html.includes('<script>'));
    assert.match(mail.html, /&lt;script&gt;/);
    assert.doesNotMatch(mail.subject, /[\r\n]/);
    assert.ok(!mail.text.includes('4242 4242 4242 4242'));
    assert.ok(!mail.html.includes('4242 4242 4242 4242'));
  });

  it('when the card has no proper last four, then no card line is shown', () => {
    assert.doesNotMatch(renderReceipt(receipt({ card: { brand: 'VISA', lastFour: '4242424242424242' } })).text, /Carte/);
  });

  it("when the session's locale is auto, then the receipt is French, D18's fallback", () => {
    assert.deepEqual([receiptLanguage('auto'), receiptLanguage('fr'), receiptLanguage('en'), receiptLanguage('ar')], ['fr', 'fr', 'en', 'ar']);
  });
});

describe('What may reach a mail header (D20)', () => {
  it('when text has CR, LF or other control characters, then they become spaces', () => {
    assert.equal(headerText('Amina\r\nBcc: x@y.tn\u0000\u2028end'), 'Amina Bcc: x@y.tn end');
  });

  it('when an address has CR/LF, spaces, commas or brackets, then it is refused', () => {
    assert.equal(checkAddress('amina@example.tn'), 'amina@example.tn');
    for (const bad of ['a@b.tn\r\nBcc: x@y.tn', 'a@b.tn, x@y.tn', 'a b@c.tn', '<a@b.tn>', 'a@b', 'a@b.tn\n', '']) assert.equal(checkAddress(bad), undefined, JSON.stringify(bad));
  });

  it('when MAIL_FROM is checked, then a name and address pass and a line break fails the config', () => {
    assert.deepEqual(checkMailbox('Paiements <no-reply@gateway.tn>'), { name: 'Paiements', address: 'no-reply@gateway.tn' });
    assert.deepEqual(checkMailbox('no-reply@gateway.tn'), { name: '', address: 'no-reply@gateway.tn' });
    assert.equal(checkMailbox('X <a@b.tn>\r\nBcc: c@d.tn'), undefined);
    assert.throws(() => loadNotifierConfig({ DATABASE_URL: 'postgres://x@h/db', MAIL_FROM: 'a@b.tn\nBcc: c@d.tn' }), /MAIL_FROM/);
    assert.throws(() => loadNotifierConfig({ DATABASE_URL: 'postgres://x@h/db', SMTP_URL: 'http://mail.example.tn' }), /SMTP_URL/);
  });

  it('when a card-like number is in a text, then it is masked', () => {
    assert.equal(withoutCardNumbers('pay 4242-4242-4242-4242 now, order 12345'), 'pay •••• now, order 12345');
  });
});

describe('Receipts from events, and retries (D20)', () => {
  it('when session.succeeded carries the receipt facts, then a payment receipt to the buyer is written, keyed on the session', () => {
    const mail = receiptMail('session.succeeded', eventData(), AT, log);
    assert.ok(mail);
    assert.deepEqual([mail.kind, mail.source, mail.recipient, mail.language], ['payment_receipt', 'ps_AAAAAAAAAAAAAAAAAAAAAAAA', 'amina@example.tn', 'en']);
    assert.match(mail.text, /Original amount: EUR\s10\.00/u);
  });

  it('when a refund is made, then its receipt is written once it has succeeded: at once when confirmed, at refund.updated when an operator resolved it, never while pending or failed', () => {
    const refunded = (status: 'succeeded' | 'pending' | 'failed') => {
      const data = eventData();
      return { ...data, session: { ...data.session, refund: { refund_id: 're_1', amount: '5.250', automated_refund: status === 'succeeded', reason: '', metadata: {}, status } } };
    };
    const mail = receiptMail('refund.created', refunded('succeeded'), AT, log);
    assert.deepEqual([mail?.kind, mail?.source], ['refund_receipt', 're_1']);
    assert.match(mail?.text ?? '', /Amount refunded: TND\s5\.250/u);
    assert.equal(receiptMail('refund.created', refunded('pending'), AT, log), undefined);
    assert.equal(receiptMail('refund.updated', refunded('failed'), AT, log), undefined);
    assert.equal(receiptMail('refund.updated', refunded('succeeded'), AT, log)?.source, 're_1');
  });

  it('when a session paid with Flouci succeeds and is refunded, then both receipts say it was paid with Flouci, in the card line\'s place, in each language, and show no card (D26)', () => {
    const flouci = { method: 'flouci', card_brand: 'flouci', card_last_four: '', card_country: '', fee_amount: '1.000', net_amount: '32.325' };
    const data = (locale: 'fr' | 'en' | 'ar') => paidSessionData({ session: { payment: flouci }, receipt: { merchant_name: 'Dar Zitouna', locale } });
    const lines: Record<string, RegExp> = { fr: /^Numéro de commande: DMO-7K2M9Q\nMoyen de paiement: Flouci\nDate: /mu, en: /^Order number: DMO-7K2M9Q\nPayment method: Flouci\nDate: /mu, ar: /^رقم الطلب: DMO-7K2M9Q\nوسيلة الدفع: Flouci\n/mu };
    for (const [locale, line] of Object.entries(lines) as ['fr' | 'en' | 'ar', RegExp][]) {
      const paid = receiptMail('session.succeeded', data(locale), AT, log);
      assert.match(paid?.text ?? '', line, `${locale}: ${paid?.text}`);
      assert.doesNotMatch(paid?.text ?? '', /Carte|Card|البطاقة|FLOUCI|••••/u);
      assert.ok(paid?.html.includes('Flouci'));
      const refund = { refund_id: 're_1', amount: '33.325', automated_refund: true, reason: '', metadata: {}, status: 'succeeded' as const };
      const refunded = receiptMail('refund.created', { ...data(locale), session: { ...data(locale).session, refund } }, AT, log);
      assert.equal(refunded?.kind, 'refund_receipt');
      assert.match(refunded?.text ?? '', line, `${locale}: ${refunded?.text}`);
    }
    // A card payment keeps its card line, and says nothing of a method.
    const card = receiptMail('session.succeeded', eventData(), AT, log)?.text ?? '';
    assert.match(card, /^Card: VISA •••• 4242$/m);
    assert.doesNotMatch(card, /Payment method/);
  });

  it('when the buyer address could carry a header, or the event lacks the receipt facts, then no mail is written', () => {
    assert.equal(receiptMail('session.succeeded', eventData({ buyer: { email: 'a@b.tn\r\nBcc: x@y.tn' } }), AT, log), undefined);
    assert.equal(receiptMail('session.succeeded', eventData({ receipt: false }), AT, log), undefined);
  });

  it('when a mail fails, then its next attempt waits longer each time up to the ceiling, and none follows the last attempt', () => {
    const retry = { first: 30, max: 3600 };
    assert.deepEqual([1, 2, 3, 8, 9].map((attempts) => nextAttemptDelay(retry, 10, attempts)), [30, 60, 120, 3600, 3600]);
    assert.equal(nextAttemptDelay(retry, 10, 10), undefined);
  });
});
