/** Schema errors as validation problems (D6): the one mapping every service and door uses. */
import { strict as assert } from 'node:assert';
import { Type } from '@sinclair/typebox';
import { CreateSessionRequest, RefundRequest } from '../../src/index.js';
import { fieldErrorsOf, isJsonObject, listFilterErrors, NOT_A_JSON_OBJECT, protoKeyError, redirectUrlError, tooDeepError, tooDeepFields, validatorOf } from '../../src/validation.js';

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

describe('metadata (D6), one rule for every request that carries it', () => {
  const errorsOf = (schema: Parameters<typeof validatorOf>[0], input: unknown) => {
    const validate = validatorOf(schema);
    return validate(input) ? [] : fieldErrorsOf(validate.errors);
  };

  it('When metadata breaks D6 in a session create or a refund, then the one error names metadata with D6’s words, never one of its keys', () => {
    const cases: [unknown, string][] = [
      [{ ['k'.repeat(41)]: 'v' }, 'metadata keys must be at most 40 characters long.'],
      [{ k: 'v'.repeat(501) }, 'metadata values must be at most 500 characters long.'],
      [{ k: 1 }, 'metadata values must be strings.'],
      [Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])), 'metadata must have at most 50 keys.'],
      [[], 'metadata must be an object of string values.'],
    ];
    for (const [metadata, message] of cases) {
      assert.deepEqual(errorsOf(RefundRequest, { reason: 'damaged', metadata }), [{ field: 'metadata', code: 'invalid', message }]);
      assert.deepEqual(
        errorsOf(CreateSessionRequest, { amount: '1.000', merchant_reference: 'r', first_name: 'A', last_name: 'B', email: 'a@b.tn', metadata }).filter((e) => e.field === 'metadata'),
        [{ field: 'metadata', code: 'invalid', message }],
      );
    }
  });

  it('When metadata keeps to D6, then it passes: 50 keys of 40 characters, values of 500', () => {
    const metadata = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`${i}`.padStart(40, 'k'), 'v'.repeat(500)]));
    assert.deepEqual(errorsOf(RefundRequest, { reason: 'damaged', metadata }), []);
  });

  it('When a body is not a JSON object, then one error names the body; a __proto__ key is reported at its path, inside metadata too', () => {
    assert.equal(isJsonObject([]), false);
    assert.equal(isJsonObject(null), false);
    assert.equal(isJsonObject({}), true);
    assert.deepEqual(NOT_A_JSON_OBJECT, { field: 'body', code: 'invalid', message: 'The request body must be a JSON object.' });
    assert.equal(protoKeyError('metadata.__proto__').field, 'metadata.__proto__');
    assert.equal(protoKeyError('items[0].__proto__').field, 'items[0].__proto__');
  });
});

describe('tooDeepFields (D29 on D6)', () => {
  /** `levels` arrays, one inside the other. */
  const nested = (levels: number): unknown => {
    let value: unknown = [];
    for (let i = 1; i < levels; i += 1) value = [value];
    return value;
  };

  it('When a field nests to 32 levels with the body, then it passes; at 33 it is named, every such field in request order', () => {
    assert.deepEqual(tooDeepFields({ metadata: nested(31), items: [{ name: 'x', options: { a: { b: 'c' } } }] }), []);
    assert.deepEqual(tooDeepFields({ b: nested(32), a: 'fine', c: { d: nested(40) } }), ['b', 'c']);
    assert.deepEqual(tooDeepError('metadata'), { field: 'metadata', code: 'invalid', message: 'metadata must not nest objects or arrays deeper than 32 levels in the body.' });
  });

  it('When a value nests a hundred thousand levels, then it is named without overflowing the call stack', () => {
    assert.deepEqual(tooDeepFields(JSON.parse(`{"metadata":${'['.repeat(100_000)}${']'.repeat(100_000)}}`) as Record<string, unknown>), ['metadata']);
  });
});

describe('redirectUrlError (D6, D29)', () => {
  it('When a URL a buyer is sent to carries a user or a password, then it is refused on its field; an @ elsewhere is no user', () => {
    for (const url of ['https://user:pass@shop.example.tn/', 'https://user@shop.example.tn/', 'https://:pass@shop.example.tn/', 'http://shop.example.tn@evil.example/']) {
      assert.deepEqual(redirectUrlError('return_url', url, false), { field: 'return_url', code: 'invalid', message: 'return_url must not contain a username or password.' }, url);
    }
    for (const url of ['https://shop.example.tn/back?by=a@b.tn', 'https://shop.example.tn/@me', 'http://localhost:3000/thanks']) assert.equal(redirectUrlError('cancel_url', url, false), undefined, url);
    assert.equal(redirectUrlError('return_url', 'http://user@shop.example.tn/', true)?.message, 'return_url must be an absolute https URL in live mode.');
  });
});
