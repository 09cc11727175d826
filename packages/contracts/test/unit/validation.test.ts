/** Schema errors as validation problems (D6): the one mapping every service and door uses. */
import { strict as assert } from 'node:assert';
import { Type } from '@sinclair/typebox';
import { fieldErrorsOf, listFilterErrors, validatorOf } from '../../src/validation.js';

const Order = Type.Object(
  {
    name: Type.String({ minLength: 1 }),
    amount: Type.String(),
    items: Type.Array(Type.Object({ quantity: Type.Integer({ minimum: 1 }) })),
  },
  { additionalProperties: false },
);

const Query = Type.Object(
  {
    status: Type.Optional(Type.Union([Type.Literal('OPEN'), Type.Literal('PAID')])),
    reference: Type.Optional(Type.String({ maxLength: 3 })),
    limit: Type.Optional(Type.String({ pattern: '^[0-9]+$' })),
  },
  { additionalProperties: false },
);

function errorsOf(value: unknown, options?: Parameters<typeof fieldErrorsOf>[1]) {
  const validate = validatorOf(Order);
  assert.equal(validate(value), false);
  return fieldErrorsOf(validate.errors, options);
}

describe('fieldErrorsOf', () => {
  it('When several rules fail, then there is one entry per field, nested fields as paths, with a code and a sentence', () => {
    const errors = errorsOf({ name: '', items: [{ quantity: 0 }, { quantity: 'x' }], colour: 'red' });
    assert.deepEqual(
      errors.map((e) => [e.field, e.code]).sort(),
      [
        ['amount', 'required'],
        ['colour', 'invalid'],
        ['items[0].quantity', 'invalid'],
        ['items[1].quantity', 'invalid'],
        ['name', 'invalid'],
      ],
    );
    assert.equal(errors.find((e) => e.field === 'amount')?.message, 'amount is required.');
    assert.equal(errors.find((e) => e.field === 'colour')?.message, 'colour is not a known field.');
    assert.equal(errors.find((e) => e.field === 'items[0].quantity')?.message, 'items[0].quantity must be at least 1.');
  });

  it('When a field has rules of its own, then skip leaves it out; the input itself is named by whole', () => {
    assert.ok(!errorsOf({ name: 'x', items: [] }, { skip: (field) => field === 'amount' }).some((e) => e.field === 'amount'));
    const validate = validatorOf(Order);
    validate('not an object');
    assert.deepEqual(
      fieldErrorsOf(validate.errors, { whole: 'form' }).map((e) => e.field),
      ['form'],
    );
    assert.deepEqual(fieldErrorsOf(undefined), []);
  });
});

describe('listFilterErrors', () => {
  it('When a filter with fixed values is wrong, then its entry names the values; paging parameters are left to the paging check', () => {
    assert.deepEqual(listFilterErrors(Query, { status: 'LOST', limit: 'many', reference: 'ABCD' }), [
      { field: 'status', code: 'invalid', message: 'status must be one of OPEN, PAID.' },
      { field: 'reference', code: 'invalid', message: 'reference must be at most 3 characters long.' },
    ]);
    assert.deepEqual(listFilterErrors(Query, { status: 'PAID', limit: '10' }), []);
  });
});
