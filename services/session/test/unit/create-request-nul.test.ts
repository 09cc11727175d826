/**
 * U+0000 in a create request (D6): PostgreSQL's text and jsonb cannot hold it,
 * so a request carrying one failed at the insert, a 500 the merchant would
 * retry for ever; it is a validation problem on the field that holds it.
 */
import assert from 'node:assert/strict';
import { checkCreateRequest } from '../../src/domain/validate-create-request.js';

const valid = { amount: '10.000', merchant_reference: 'order-nul', first_name: 'Amira', last_name: 'Ben Salah', email: 'amira@example.tn' };

function errorsOf(fields: Record<string, unknown>) {
  const checked = checkCreateRequest({ ...valid, ...fields }, false);
  assert.equal(checked.ok, false, JSON.stringify(fields));
  return checked.ok ? [] : checked.errors.map((e) => [e.field, e.code]);
}

describe('A create request holding U+0000', () => {
  it('when a text field, an item field or a metadata value or key holds U+0000, then each such field is invalid (422), one entry per field', () => {
    assert.deepEqual(errorsOf({ description: 'two\u0000books' }), [['description', 'invalid']]);
    assert.deepEqual(errorsOf({ merchant_reference: 'order\u0000' }), [['merchant_reference', 'invalid']]);
    assert.deepEqual(errorsOf({ items: [{ name: 'Book', quantity: 1 }, { name: 'Pen\u0000', quantity: 1 }] }), [['items[1].name', 'invalid']]);
    assert.deepEqual(errorsOf({ metadata: { cart: 'a\u0000' } }), [['metadata', 'invalid']]);
    assert.deepEqual(errorsOf({ metadata: { ['k\u0000']: 'v' } }), [['metadata', 'invalid']]);
    assert.deepEqual(errorsOf({ first_name: '\u0000', metadata: { cart: '\u0000' } }), [['first_name', 'invalid'], ['metadata', 'invalid']]);
  });

  it('when no string holds U+0000, then other control characters and any other text are left as they were', () => {
    const checked = checkCreateRequest({ ...valid, description: 'tab\there, é, 日本, \u0001', metadata: { cart: '\u00a0' } }, false);
    assert.ok(checked.ok);
  });
});
