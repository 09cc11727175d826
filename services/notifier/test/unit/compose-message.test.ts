/**
 * A mail's message as it goes over SMTP (D20): nodemailer's message of the
 * mail, built whole, for every kind and language (its Message-ID, Date and
 * boundary fixed here; in a sent mail they are new each time), with the
 * envelope the SMTP exchange needs. Also, pinned: a receipt's subject, text
 * and HTML as rendered.
 */
import assert from 'node:assert/strict';
import MailComposer from 'nodemailer/lib/mail-composer';
import { queuedMail, type RenderedMail } from '../../src/domain/queued-mail.js';
import { composeMessage, type OutgoingMail } from '../../src/mail/compose-message.js';
import { renderEndpointDisabled } from '../../src/views/owner-notice-mails.js';
import { renderInvitation, renderPasswordReset } from '../../src/views/people-mails.js';
import { renderReceipt } from '../../src/views/receipt-mail.js';
import { receiptOf } from '../support/session-events.js';

const AT = new Date('2026-11-26T23:30:00Z');
const LOGO = `https://pay.example.tn/checkout/brand/${'c'.repeat(64)}.png`;

const receipt = receiptOf;

const MAILS: Record<string, RenderedMail> = {
  'a French test receipt, branded': renderReceipt(receipt({ livemode: false, brand: { logoUrl: LOGO, accentColor: '#0b5cad' } })),
  'an English receipt converted from euros': renderReceipt(receipt({ language: 'en', amount: '33.325', original: { amount: '10.00', currency: 'EUR' } })),
  'an Arabic refund receipt': renderReceipt(receipt({ language: 'ar', kind: 'refund_receipt', amount: '5.250' })),
  'a receipt of a long merchant name with markup': renderReceipt(receipt({ merchantName: `Boutique <b>${'très '.repeat(30)}</b> & fils`, orderNumber: 'X'.repeat(40) })),
  'an Arabic invitation': renderInvitation({ language: 'ar', merchantName: 'دار الزيتونة', role: 'owner', link: `https://pay.example.tn/dashboard/setup?token=${'t'.repeat(43)}`, expiresAt: AT }),
  'an English password reset': renderPasswordReset({ language: 'en', email: 'amina@example.tn', door: 'dashboard', link: `https://pay.example.tn/dashboard/reset?token=${'r'.repeat(43)}`, expiresAt: AT }),
  'a short mail in ASCII (sent as it is, 7bit)': { subject: 'Hello', text: 'Hello,\n\nA short line.\n', html: '<p>Hello,</p>\n<p>A short line.</p>\n' },
  'a French notice': renderEndpointDisabled({ language: 'fr', merchantId: 'mer_1', livemode: false, endpointId: 'we_1', url: 'https://hooks.example.tn/x', disabledAt: AT }),
};

/** The mail as the queue hands it to the transport. */
function outgoing(rendered: RenderedMail): OutgoingMail {
  const mail = queuedMail({ kind: 'payment_receipt', source: 'ps_1', merchantId: 'mer_1', livemode: true, language: 'fr', recipient: 'amina@example.tn' }, rendered);
  return { to: mail.recipient, subject: mail.subject, text: mail.text, html: mail.html, headers: mail.headers };
}

const FIXED = { messageId: '<fixed-message-id@gateway.local>', date: AT, baseBoundary: '0123456789abcdef' };

describe('A mail as it goes over SMTP (D20)', () => {
  for (const [name, rendered] of Object.entries(MAILS)) {
    it(`when ${name} is sent, then its message is nodemailer's, whole, with its Message-ID and envelope`, async () => {
      for (const from of [{ name: 'Paiements', address: 'no-reply@gateway.local' }, { name: 'Paiements Dar Zitouna — reçus', address: 'no-reply@pay.example.tn' }]) {
        const composed = await composeMessage(from, outgoing(rendered), FIXED);
        // Built whole by nodemailer, as its own stream would send it.
        const streamed = await new MailComposer({ from, to: { name: '', address: 'amina@example.tn' }, subject: rendered.subject, text: rendered.text, html: rendered.html, headers: outgoing(rendered).headers, ...FIXED }).compile().build();
        assert.equal(composed.raw.toString('utf8'), streamed.toString('utf8'));
        const head = composed.raw.toString('utf8').split('\r\n\r\n')[0] ?? '';
        assert.match(head, /^To: amina@example\.tn$/m, 'to the address alone, no name');
        assert.match(head, /^Message-ID: <fixed-message-id@gateway\.local>$/m);
        assert.match(head, /^Content-Type: multipart\/alternative;/m);
        assert.equal(composed.messageId, '<fixed-message-id@gateway.local>');
        assert.deepEqual(composed.envelope, { from: from.address, to: ['amina@example.tn'] });
      }
    });
  }

  it('when a receipt is rendered, then its subject, text and HTML are as pinned here', () => {
    const mail = MAILS['a French test receipt, branded'];
    assert.ok(mail);
    assert.equal(mail.subject, '[TEST] Votre reçu Dar Zitouna — commande DMO-7K2M9Q');
    assert.equal(
      mail.text,
      [
        'Mode test : aucun argent n’a été débité ni versé. Ce reçu concerne un essai, pas un vrai paiement ni un vrai remboursement.',
        '',
        'Bonjour,',
        '',
        'Votre paiement à Dar Zitouna a été accepté.',
        '',
        'Montant payé: 1\u202f234,500\u00a0TND',
        'Numéro de commande: DMO-7K2M9Q',
        'Carte: VISA •••• 4242',
        'Date: 27 novembre 2026 à 00:30',
        '',
        'Ce message est envoyé automatiquement ; merci de ne pas y répondre. Pour toute question, contactez Dar Zitouna.',
        '',
      ].join('\n'),
    );
    assert.equal(
      mail.html,
      `<!doctype html>
<html lang="fr" dir="ltr">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>[TEST] Votre reçu Dar Zitouna — commande DMO-7K2M9Q</title></head>
<body dir="ltr" style="font-family:Arial,Helvetica,sans-serif;color:#1f2933;text-align:left">
<p style="padding:8px 12px;background:#fff4ce;border:1px solid #e0b100;font-weight:bold">Mode test : aucun argent n’a été débité ni versé. Ce reçu concerne un essai, pas un vrai paiement ni un vrai remboursement.</p>
<hr style="border:0;border-top:4px solid #0b5cad;margin:0 0 16px">
<p><img src="${LOGO}" alt="Dar Zitouna" height="48" style="display:block;height:48px;width:auto;max-width:200px;border:0"></p>
<p>Bonjour,</p>
<p>Votre paiement à Dar Zitouna a été accepté.</p>
<table role="presentation" cellpadding="6" style="border-collapse:collapse">
<tr><th scope="row" style="text-align:left;font-weight:normal;color:#52606d">Montant payé</th><td dir="auto"><strong>1\u202f234,500\u00a0TND</strong></td></tr>
<tr><th scope="row" style="text-align:left;font-weight:normal;color:#52606d">Numéro de commande</th><td dir="auto"><strong>DMO-7K2M9Q</strong></td></tr>
<tr><th scope="row" style="text-align:left;font-weight:normal;color:#52606d">Carte</th><td dir="auto"><strong>VISA •••• 4242</strong></td></tr>
<tr><th scope="row" style="text-align:left;font-weight:normal;color:#52606d">Date</th><td dir="auto"><strong>27 novembre 2026 à 00:30</strong></td></tr>
</table>
<p style="color:#7b8794;font-size:12px">Ce message est envoyé automatiquement ; merci de ne pas y répondre. Pour toute question, contactez Dar Zitouna.</p>
</body>
</html>
`,
    );
  });
});
