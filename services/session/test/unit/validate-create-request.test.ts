import assert from 'node:assert/strict';
import { checkCreateRequest } from '../../src/domain/validate-create-request.js';

const valid = { amount: '10.000', merchant_reference: 'r', first_name: 'A', last_name: 'B', email: 'a@b.tn' };
const fields = (body: unknown, livemode = false) => {
  const result = checkCreateRequest(body, livemode);
  return result.ok ? [] : result.errors.map((e) => `${e.field}:${e.code}`);
};

describe('create request validation', () => {
  it('when the request is valid, then it passes with the amount at the currency precision', () => {
    const result = checkCreateRequest({ ...valid, currency: 'jpy', amount: '1500' }, false);
    assert.ok(result.ok);
    assert.equal(result.request.currency.code, 'JPY');
    assert.equal(result.request.amountText, '1500');
  });

  it('when the currency is unknown, then the amount is judged only on presence, type and format', () => {
    assert.deepEqual(fields({ ...valid, currency: 'XYZ', amount: '10.5' }), ['currency:invalid']);
    assert.deepEqual(fields({ ...valid, currency: 'XYZ', amount: '1,5' }), ['amount:invalid_format', 'currency:invalid']);
    assert.deepEqual(fields({ ...valid, currency: 7 }), ['currency:invalid']);
  });

  it('when errors are found, then they come in the order of the request, omitted required fields last', () => {
    assert.deepEqual(fields({ last_name: '', zzz: 1, amount: 5, email: 'x' }), [
      'last_name:invalid',
      'zzz:invalid',
      'amount:invalid_type',
      'email:invalid',
      'merchant_reference:required',
      'first_name:required',
    ]);
  });

  it('when a field has several problems, then it is reported once', () => {
    assert.deepEqual(fields({ ...valid, email: 'x'.repeat(300) }), ['email:invalid']);
  });

  it('when the body is not an object, then the error is on body', () => {
    for (const body of [null, [], 'x', 3]) assert.deepEqual(fields(body), ['body:invalid']);
  });

  it('when URLs are given, then live mode needs https and no scheme but http(s) is taken', () => {
    assert.deepEqual(fields({ ...valid, webhook_url: 'http://h.tn/w' }, true), ['webhook_url:invalid']);
    assert.deepEqual(fields({ ...valid, webhook_url: 'https://h.tn/w' }, true), []);
    assert.deepEqual(fields({ ...valid, cancel_url: 'ftp://h.tn/c' }), ['cancel_url:invalid']);
    assert.deepEqual(fields({ ...valid, cancel_url: '/relative' }), ['cancel_url:invalid']);
  });

  it('when items and metadata are malformed, then errors carry their paths', () => {
    assert.deepEqual(fields({ ...valid, items: [{ name: 'a', quantity: 1 }, { name: 'b', quantity: 1.5, unit_price: '1,0' }] }), ['items[1].quantity:invalid', 'items[1].unit_price:invalid']);
    assert.deepEqual(fields({ ...valid, items: [{ name: 'a', quantity: 1, unit_price: 'x' }] }), ['items[0].unit_price:invalid']);
    assert.deepEqual(fields({ ...valid, metadata: { ['k'.repeat(41)]: 'v' } }), ['metadata:invalid']);
    assert.deepEqual(fields({ ...valid, metadata: { k: 'v'.repeat(501) } }), ['metadata:invalid']);
    assert.deepEqual(fields({ ...valid, metadata: [] }), ['metadata:invalid']);
    assert.deepEqual(fields({ ...valid, metadata: JSON.parse('{"__proto__":"x"}') }), ['metadata.__proto__:invalid']);
    // A command may reach the service without the gateway's body check: the validator refuses these too.
    assert.deepEqual(fields({ ...valid, items: JSON.parse('[{"name":"a","quantity":1,"__proto__":{"x":1}}]') }), ['items[0].__proto__:invalid']);
  });

  it('when optional strings are empty, then they are invalid rather than defaulted (1 to N characters)', () => {
    assert.deepEqual(fields({ ...valid, description: '', phone: '' }), ['description:invalid', 'phone:invalid']);
  });

  it('when a card is to be saved or charged without the buyer (D24), then the customer and the card are asked for, and the buyer fields are not', () => {
    assert.deepEqual(fields({ ...valid, save_card: 'on_session' }), ['customer:required']);
    assert.deepEqual(fields({ ...valid, save_card: 'off' }), []);
    assert.deepEqual(fields({ ...valid, customer: 'cus_1', save_card: 'sometimes' }), ['save_card:invalid']);
    const offSession = { amount: '10.000', merchant_reference: 'r', off_session: true };
    assert.deepEqual(fields(offSession), ['customer:required', 'payment_method:required']);
    assert.deepEqual(fields({ ...offSession, customer: 'cus_1', payment_method: 'pm_1' }), []);
    assert.deepEqual(fields({ ...offSession, customer: 'cus_1', payment_method: 'pm_1', save_card: 'off_session' }), ['save_card:invalid']);
    assert.deepEqual(fields({ ...valid, customer: 'cus_1', payment_method: 'pm_1' }), ['payment_method:invalid']);
    // Without off_session the buyer fields stay required.
    assert.deepEqual(fields({ amount: '10.000', merchant_reference: 'r', customer: 'cus_1', off_session: false }), ['first_name:required', 'last_name:required', 'email:required']);
  });
});
