/** The card form is checked on the page's server before anything leaves it. */
import assert from 'node:assert/strict';
import { checkCardForm } from '../../src/domain/card-form.js';

describe('Card form checks', () => {
  const now = new Date('2026-11-22T10:00:00Z');
  const good = { card_number: '4242 4242 4242 4242', expiry: '11/26', cvc: '123', cardholder_name: ' Amina Ben Salah ' };

  it('when the card is well formed, then spaces go, the year has four digits and the name is trimmed', () => {
    assert.deepEqual(checkCardForm(good, now), {
      ok: true,
      card: { pan: '4242424242424242', cvc: '123', expMonth: '11', expYear: '2026', holder: 'Amina Ben Salah' },
    });
    assert.equal(checkCardForm({ ...good, card_number: '4242-4242-4242-4242', expiry: '12/2030' }, now).ok, true);
  });

  it('when fields are wrong, then each is named, and neither the card number nor the code is given back', () => {
    const check = checkCardForm({ card_number: '4242424242424241', expiry: '10/26', cvc: '12', cardholder_name: '' }, now);
    assert.equal(check.ok, false);
    if (check.ok) return;
    assert.deepEqual(Object.keys(check.errors).sort(), ['card_number', 'cardholder_name', 'cvc', 'expiry']);
    assert.equal(check.errors.expiry, 'error_expiry_past');
    assert.deepEqual(check.values, { expiry: '10/26', cardholder_name: '' });
  });

  it('when the expiry is malformed or a field is missing or not text, then it is refused', () => {
    for (const expiry of ['13/26', '1/26', '11-26', '', '11/2']) {
      const check = checkCardForm({ ...good, expiry }, now);
      assert.equal(check.ok ? undefined : check.errors.expiry, 'error_expiry_format', expiry);
    }
    const check = checkCardForm({ card_number: ['4242424242424242'] }, now);
    assert.equal(check.ok, false);
  });
});
