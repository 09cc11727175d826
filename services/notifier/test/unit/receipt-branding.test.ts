/** Receipts and the merchant's settings (D20): its logo and accent colour on the receipt, its switch per mode, a failed branding read retried. */
import assert from 'node:assert/strict';
import type { SessionEventData } from '@gateway/contracts';
import type { ChangeContext } from '@gateway/messaging';
import { createLogger } from '@gateway/observability';
import type { MailQueueRepository, NewMail } from '../../src/db/mail-queue.repository.js';
import { buyerReceipts, type ReceiptSources } from '../../src/domain/write-receipt.js';
import { renderReceipt } from '../../src/views/receipt-mail.js';
import { paidSessionData } from '../support/session-events.js';

const AT = new Date('2026-11-26T10:00:00Z');
const LOGO = `https://pay.example.tn/checkout/brand/${'c'.repeat(64)}.png`;
const log = createLogger({ service: 'notifier-test', level: 'silent' });

const data = (livemode: boolean): SessionEventData =>
  paidSessionData({ session: { id: `ps_${livemode ? 'LIVE' : 'TEST'}AAAAAAAAAAAAAAAAAAAA`, livemode }, receipt: { merchant_name: 'Dar "Zitouna"', locale: 'en' } });

const context: ChangeContext = { correlationId: 'c1', at: AT, event: { type: 'session.succeeded' } } as unknown as ChangeContext;

function change(sources: Partial<ReceiptSources>) {
  const written: NewMail[] = [];
  const mails = { enqueue: async (mail: NewMail) => (written.push(mail), { id: `mail_${written.length}`, status: 'pending' }) } as unknown as MailQueueRepository;
  const receipts = buyerReceipts(mails, log, { receiptsEnabled: async () => true, brandOf: async () => ({}), ...sources });
  return { receipts, written };
}

describe('Receipts with the merchant settings (D20)', () => {
  it('when the merchant has a logo and an accent colour, then the HTML shows the logo by its absolute URL, the name as its alternative text, and the colour', () => {
    const mail = renderReceipt({ kind: 'payment_receipt', language: 'en', merchantName: 'Dar "Zitouna"', livemode: true, orderNumber: 'X-1', amount: '1.000', at: AT, brand: { logoUrl: LOGO, accentColor: '#0b5cad' } });
    assert.ok(mail.html.includes(`<img src="${LOGO}" alt="Dar &quot;Zitouna&quot;"`), mail.html);
    assert.match(mail.html, /border-top:4px solid #0b5cad/);
    const plain = renderReceipt({ kind: 'payment_receipt', language: 'en', merchantName: 'Dar', livemode: true, orderNumber: 'X-1', amount: '1.000', at: AT });
    assert.ok(!plain.html.includes('<img'));
  });

  it('when a branding value is not a colour or an http(s) URL, then the receipt leaves it out', () => {
    const mail = renderReceipt({ kind: 'payment_receipt', language: 'en', merchantName: 'Dar', livemode: true, orderNumber: 'X-1', amount: '1.000', at: AT, brand: { logoUrl: 'javascript:alert(1)', accentColor: 'red;background:url(x)' } });
    assert.ok(!mail.html.includes('<img'));
    assert.ok(!mail.html.includes('border-top:4px'));
  });

  it('when receipts are off in the event’s mode, then no mail is written; on in the other mode, the branded receipt is', async () => {
    const { receipts, written } = change({ receiptsEnabled: async (_merchant, livemode) => livemode, brandOf: async () => ({ logoUrl: LOGO, accentColor: '#0b5cad' }) });
    const test = receipts.fromEvent(data(false), context);
    assert.ok(test);
    assert.equal(await receipts.apply(test, context), undefined);
    assert.equal(written.length, 0);
    const live = receipts.fromEvent(data(true), context);
    assert.ok(live);
    assert.equal(await receipts.apply(live, context), 'mail_1');
    assert.ok(written[0]?.html.includes(LOGO));
  });

  it('when the branding cannot be read, then applying fails (the event comes again) and nothing is written', async () => {
    const { receipts, written } = change({ brandOf: async () => Promise.reject(new Error('checkout unreachable')) });
    const asked = receipts.fromEvent(data(false), context);
    assert.ok(asked);
    await assert.rejects(receipts.apply(asked, context), /checkout unreachable/);
    assert.equal(written.length, 0);
  });
});
