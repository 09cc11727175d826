import assert from 'node:assert/strict';
import { addTnd, computeFee, parsePricing } from '../../src/index.js';
import type { Pricing } from '../../src/index.js';

function pricing(percent: string, fixed: string): Pricing {
  const parsed = parsePricing(percent, fixed);
  assert.ok(parsed, `${percent} / ${fixed}`);
  return parsed;
}

describe('parsePricing', () => {
  const valid: ReadonlyArray<readonly [string, string, Pricing]> = [
    ['2.5', '0.300', { percent: '2.5', fixed: '0.300' }],
    ['2.50', '0.3', { percent: '2.5', fixed: '0.300' }],
    ['0', '0', { percent: '0', fixed: '0.000' }],
    ['0.0000', '0.000', { percent: '0', fixed: '0.000' }],
    ['100', '0', { percent: '100', fixed: '0.000' }],
    ['100.0000', '1', { percent: '100', fixed: '1.000' }],
    ['1.2345', '0.001', { percent: '1.2345', fixed: '0.001' }],
    ['0.0001', '999999.999', { percent: '0.0001', fixed: '999999.999' }],
  ];
  for (const [percent, fixed, expected] of valid) {
    it(`When pricing is ${percent} % + ${fixed}, then it normalises to ${expected.percent} % + ${expected.fixed}`, () => {
      assert.deepEqual(parsePricing(percent, fixed), expected);
    });
  }

  const invalid: ReadonlyArray<readonly [string, unknown, unknown]> = [
    ['a percent over 100', '100.0001', '0.000'],
    ['a percent of 101', '101', '0.000'],
    ['a negative percent', '-1', '0.000'],
    ['a negative zero percent', '-0', '0.000'],
    ['a percent with 5 decimals', '2.50001', '0.000'],
    ['a percent as a number', 2.5, '0.300'],
    ['a percent with a % sign', '2.5%', '0.300'],
    ['a percent with a comma', '2,5', '0.300'],
    ['an empty percent', '', '0.300'],
    ['a missing percent', undefined, '0.300'],
    ['a fixed part with 4 decimals', '2.5', '0.3000'],
    ['a negative fixed part', '2.5', '-0.300'],
    ['a fixed part as a number', '2.5', 0.3],
    ['a fixed part in exponent notation', '2.5', '3e-1'],
    ['a fixed part with a leading zero', '2.5', '00.300'],
    ['a fixed part over the maximum amount', '2.5', '1000000.000'],
    ['a null fixed part', '2.5', null],
  ];
  for (const [label, percent, fixed] of invalid) {
    it(`When pricing has ${label}, then it is refused`, () => {
      assert.equal(parsePricing(percent, fixed), undefined);
    });
  }
});

describe('computeFee', () => {
  it('When 100.000 is priced at 2.5 % + 0.300, then the fee is 2.800 and the net 97.200', () => {
    assert.deepEqual(computeFee('100.000', pricing('2.5', '0.300')), { fee: '2.800', net: '97.200' });
  });

  it('When the percentage lands on half a millime, then the fee rounds up', () => {
    // 0.100 x 0.5 % = 0.0005
    assert.deepEqual(computeFee('0.100', pricing('0.5', '0')), { fee: '0.001', net: '0.099' });
    // 12.345 x 2.5 % = 0.308625, + 0.300 = 0.608625
    assert.deepEqual(computeFee('12.345', pricing('2.5', '0.300')), { fee: '0.609', net: '11.736' });
  });

  it('When the percentage lands on half a millime after an even digit, then it still rounds up, not to even', () => {
    // 0.500 x 0.5 % = 0.0025 -> 0.003 half-up (half-even would give 0.002)
    assert.deepEqual(computeFee('0.500', pricing('0.5', '0')), { fee: '0.003', net: '0.497' });
  });

  it('When the percentage is just under half a millime, then the fee rounds down', () => {
    // 0.099 x 0.5 % = 0.000495
    assert.deepEqual(computeFee('0.099', pricing('0.5', '0')), { fee: '0.000', net: '0.099' });
  });

  it('When the fixed part exceeds a small amount, then the fee is capped at the amount and the net is zero', () => {
    assert.deepEqual(computeFee('0.100', pricing('2.5', '0.300')), { fee: '0.100', net: '0.000' });
  });

  it('When the pricing is 100 % plus a fixed part, then the fee is capped at the amount', () => {
    assert.deepEqual(computeFee('50.000', pricing('100', '1')), { fee: '50.000', net: '0.000' });
  });

  it('When the fee equals the amount exactly, then it is not capped further', () => {
    assert.deepEqual(computeFee('0.300', pricing('0', '0.300')), { fee: '0.300', net: '0.000' });
  });

  it('When the pricing is free, then the fee is zero and the net is the whole amount', () => {
    assert.deepEqual(computeFee('123.456', pricing('0', '0')), { fee: '0.000', net: '123.456' });
  });

  it('When the maximum amount is priced, then the arithmetic stays exact', () => {
    // 999999.999 x 2.9 % = 28999.999971 -> 29000.000, + 0.250
    assert.deepEqual(computeFee('999999.999', pricing('2.9', '0.250')), { fee: '29000.250', net: '970999.749' });
  });

  it('When many amounts and pricings are combined, then fee + net always equals the amount and 0 <= fee <= amount', () => {
    const amounts = ['0.001', '0.010', '0.099', '0.100', '0.333', '1.000', '9.999', '12.345', '100.005', '999999.999'];
    const pricings = [pricing('0', '0'), pricing('2.5', '0.300'), pricing('1.2345', '0.001'),
      pricing('99.9999', '0'), pricing('100', '0'), pricing('3.3333', '0.999'), pricing('0.0001', '0')];
    for (const amount of amounts) {
      for (const price of pricings) {
        const { fee, net } = computeFee(amount, price);
        const label = `${amount} at ${price.percent} % + ${price.fixed}`;
        assert.match(fee, /^\d+\.\d{3}$/, label);
        assert.match(net, /^\d+\.\d{3}$/, label);
        assert.equal(addTnd(fee, net), amount, label);
      }
    }
  });

  it('When the amount is negative, then computeFee throws', () => {
    assert.throws(() => computeFee('-1.000', pricing('2.5', '0.300')), RangeError);
  });

  it('When the amount has more than 3 decimals, then computeFee throws rather than lose a part of it', () => {
    assert.throws(() => computeFee('1.0005', pricing('2.5', '0.300')), RangeError);
  });

  it('When the pricing was not validated, then computeFee throws', () => {
    assert.throws(() => computeFee('10.000', { percent: '150', fixed: '0.300' }), RangeError);
    assert.throws(() => computeFee('10.000', { percent: '2.5', fixed: '-1' }), RangeError);
  });
});
