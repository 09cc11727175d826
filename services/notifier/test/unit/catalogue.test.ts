/** The notifier's words (D18, D20): one catalogue of receipts, people mails and owner notices, sound in every language. */
import assert from 'node:assert/strict';
import { catalogueProblems } from '@gateway/i18n';
import { mailTranslator, NOTIFIER_CATALOGUE } from '../../src/views/catalogue/index.js';

describe('Notifier catalogue', () => {
  it('when the catalogue is checked, then every key has all three languages, parses as ICU, takes the same arguments and nothing is left in English but the words French shares', () => {
    // French writes "Date", "Mode" and "test" as English does.
    const sameAsEnglish = { fr: ['receipt_date', 'notice_date', 'notice_mode', 'notice_mode_test'] };
    assert.deepEqual(catalogueProblems(NOTIFIER_CATALOGUE, { sameAsEnglish }), []);
  });

  it('when values are filled, then each is replaced, and a missing one is refused rather than shown', () => {
    assert.equal(mailTranslator('fr')('receipt_payment_intro', { merchant: 'Dar Zitouna' }), 'Votre paiement à Dar Zitouna a été accepté.');
    assert.equal(mailTranslator('ar')('refund_resolved_subject_failed', { refund: 're_1' }), 'فشل الاسترداد re_1');
    assert.throws(() => mailTranslator('en')('receipt_payment_subject', { merchant: 'Dar' }), /order/);
  });
});
