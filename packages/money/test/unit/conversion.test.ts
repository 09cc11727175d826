import assert from 'node:assert/strict';
import BigJs from 'big.js';
import { IDENTITY_RATE, checkAmount, convertToAccountCurrency, findCurrency, parseRate } from '../../src/index.js';

describe('parseRate', () => {
  const valid: ReadonlyArray<readonly [string, string]> = [
    ['3.3', '3.300000'], ['3', '3.000000'], ['3.333333', '3.333333'], ['0.000001', '0.000001'],
    ['0.000049', '0.000049'], ['1.000000', '1.000000'], ['1', IDENTITY_RATE], ['1234.5', '1234.500000'],
    ['0.1', '0.100000'],
  ];
  for (const [input, expected] of valid) {
    it(`When the rate is ${JSON.stringify(input)}, then it is ${expected}`, () => {
      assert.equal(parseRate(input), expected);
    });
  }

  const invalid: ReadonlyArray<readonly [string, unknown]> = [
    ['zero', '0'], ['zero with decimals', '0.000000'], ['negative zero', '-0.0'], ['negative', '-3.3'],
    ['7 decimals', '3.3333333'], ['7 decimals below a millionth', '0.0000001'], ['empty', ''],
    ['a comma', '3,3'], ['exponent notation', '3e0'], ['a leading zero', '03.3'], ['a plus sign', '+3.3'],
    ['a trailing dot', '3.'], ['a leading dot', '.3'], ['spaces', ' 3.3'], ['a number', 3.3],
    ['null', null], ['undefined', undefined], ['a Big', new BigJs('3.3')], ['an object', { rate: '3.3' }],
  ];
  for (const [label, input] of invalid) {
    it(`When the rate is ${label}, then it is refused`, () => {
      assert.equal(parseRate(input), undefined);
    });
  }
});

describe('convertToAccountCurrency', () => {
  it('When 10.00 is converted at 3.333333, then 33.33333 rounds down to 33.333', () => {
    assert.deepEqual(convertToAccountCurrency('10.00', '3.333333'), { ok: true, amount: '33.333' });
  });

  it('When 1.00 is converted at 3.3335, then the half millime rounds up to 3.334', () => {
    assert.deepEqual(convertToAccountCurrency('1.00', '3.3335'), { ok: true, amount: '3.334' });
  });

  it('When 1.00 is converted at 3.3325, then the half millime rounds up to 3.333, not to the even 3.332', () => {
    assert.deepEqual(convertToAccountCurrency('1.00', '3.3325'), { ok: true, amount: '3.333' });
  });

  it('When 1.00 is converted at 3.332499, then just under half a millime rounds down to 3.332', () => {
    assert.deepEqual(convertToAccountCurrency('1.00', '3.332499'), { ok: true, amount: '3.332' });
  });

  it('When EUR 0.01 is converted at 0.000049, then 0.00000049 rounds to 0.000 and is invalid_value', () => {
    assert.deepEqual(convertToAccountCurrency('0.01', '0.000049'), { ok: false, code: 'invalid_value' });
  });

  it('When JPY 1 is converted at 0.000499, then 0.000499 rounds to 0.000 and is invalid_value', () => {
    assert.deepEqual(convertToAccountCurrency('1', '0.000499'), { ok: false, code: 'invalid_value' });
  });

  it('When JPY 1 is converted at 0.0005, then exactly half a millime rounds up to 0.001 and is accepted', () => {
    assert.deepEqual(convertToAccountCurrency('1', '0.0005'), { ok: true, amount: '0.001' });
  });

  it('When the converted amount is exactly 999999.999, then it is accepted', () => {
    assert.deepEqual(convertToAccountCurrency('333333.333', '3'), { ok: true, amount: '999999.999' });
  });

  it('When a valid EUR amount crosses 999999.999 after conversion, then it is amount_too_large', () => {
    const eur = findCurrency('EUR');
    assert.ok(eur);
    const requested = checkAmount('400000.00', eur);
    assert.ok(requested.ok);
    assert.deepEqual(convertToAccountCurrency(requested.amount, '3.300000'), { ok: false, code: 'amount_too_large' });
  });

  it('When the product is 999999.9994, then it rounds down to the maximum and is accepted', () => {
    assert.deepEqual(convertToAccountCurrency('999999.9994', '1'), { ok: true, amount: '999999.999' });
  });

  it('When the product is 999999.9995, then it rounds up past the maximum and is amount_too_large', () => {
    assert.deepEqual(convertToAccountCurrency('999999.9995', '1'), { ok: false, code: 'amount_too_large' });
  });

  it('When a TND amount is converted at the identity rate, then it is unchanged', () => {
    assert.deepEqual(convertToAccountCurrency('12.345', IDENTITY_RATE), { ok: true, amount: '12.345' });
  });

  it('When a KWD amount with 3 decimals is converted, then the result is rounded to millimes', () => {
    assert.deepEqual(convertToAccountCurrency('1.235', '10.123457'), { ok: true, amount: '12.502' });
  });

  it('When the amount is a Big, then it converts like the string', () => {
    assert.deepEqual(convertToAccountCurrency(new BigJs('10.00'), '3.333333'), { ok: true, amount: '33.333' });
  });

  it('When the global Big is set to round half-even, then conversion still rounds half-up', () => {
    const saved = BigJs.RM;
    BigJs.RM = BigJs.roundHalfEven;
    try {
      assert.deepEqual(convertToAccountCurrency(new BigJs('1.00'), '3.3325'), { ok: true, amount: '3.333' });
    } finally {
      BigJs.RM = saved;
    }
  });

  it('When the package is loaded, then the global Big keeps its default settings', () => {
    assert.equal(BigJs.RM, BigJs.roundHalfUp);
    assert.equal(BigJs.strict, false);
    assert.equal(BigJs.DP, 20);
    assert.equal(BigJs.NE, -7);
    assert.equal(BigJs.PE, 21);
  });

  it('When the rate is not a valid rate, then conversion throws instead of guessing', () => {
    assert.throws(() => convertToAccountCurrency('10.00', '0'), RangeError);
    assert.throws(() => convertToAccountCurrency('10.00', '3.3333333'), RangeError);
    assert.throws(() => convertToAccountCurrency('10.00', '1e1'), RangeError);
  });

  it('When the amount string is not a plain decimal, then conversion throws', () => {
    assert.throws(() => convertToAccountCurrency('1e3', '1'), RangeError);
    assert.throws(() => convertToAccountCurrency(' 10.00', '1'), RangeError);
  });

  it('When the amount is a number smuggled past the types, then conversion throws', () => {
    assert.throws(() => convertToAccountCurrency(10 as unknown as string, '1'), TypeError);
  });

  it('When the amount is negative, then the result is invalid_value', () => {
    assert.deepEqual(convertToAccountCurrency('-10.00', '3.3'), { ok: false, code: 'invalid_value' });
  });
});
