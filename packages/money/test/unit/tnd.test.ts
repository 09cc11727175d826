import assert from 'node:assert/strict';
import BigJs from 'big.js';
import { addTnd, compareTnd, formatTnd, subtractTnd } from '../../src/index.js';

describe('formatTnd', () => {
  const cases: ReadonlyArray<readonly [string, string]> = [
    ['12.345', '12.345'], ['12', '12.000'], ['12.3', '12.300'], ['0', '0.000'], ['12.3455', '12.346'],
    ['12.3454', '12.345'], ['12.3445', '12.345'], ['0.0005', '0.001'], ['0.0004', '0.000'],
    ['-0.0004', '0.000'], ['-0.000', '0.000'], ['-1.2345', '-1.235'], ['999999.9995', '1000000.000'],
    ['0.00000001', '0.000'], ['123456789012345678901234567890.1', '123456789012345678901234567890.100'],
  ];
  for (const [input, expected] of cases) {
    it(`When ${JSON.stringify(input)} is formatted, then it reads ${expected}`, () => {
      assert.equal(formatTnd(input), expected);
    });
  }

  it('When a Big from a round-down constructor is formatted, then it still rounds half-up', () => {
    const RoundDown = BigJs();
    RoundDown.RM = BigJs.roundDown;
    assert.equal(formatTnd(new RoundDown('1.2345')), '1.235');
  });

  it('When a tiny Big that would print in exponent notation is formatted, then it reads in plain digits', () => {
    assert.equal(formatTnd(new BigJs('0.0000001')), '0.000');
    assert.equal(formatTnd(new BigJs('1e21')), '1000000000000000000000.000');
  });

  it('When the value is not a plain decimal string, then formatting throws', () => {
    assert.throws(() => formatTnd('1e3'), RangeError);
    assert.throws(() => formatTnd('1,000'), RangeError);
    assert.throws(() => formatTnd(1.5 as unknown as string), TypeError);
  });
});

describe('addTnd, subtractTnd and compareTnd', () => {
  it('When two amounts are added, then the sum is exact with 3 decimals', () => {
    assert.equal(addTnd('0.100', '0.200'), '0.300');
    assert.equal(addTnd('999999.999', '0.001'), '1000000.000');
    assert.equal(addTnd('1', '2.5'), '3.500');
  });

  it('When amounts that float addition gets wrong are added, then the sum is still exact', () => {
    let total = '0.000';
    for (let i = 0; i < 10; i += 1) total = addTnd(total, '0.1');
    assert.equal(total, '1.000');
  });

  it('When an amount is subtracted, then the difference is exact and may go negative', () => {
    assert.equal(subtractTnd('10.000', '3.333'), '6.667');
    assert.equal(subtractTnd('0.300', '0.100'), '0.200');
    assert.equal(subtractTnd('1.000', '1.000'), '0.000');
    assert.equal(subtractTnd('1.000', '1.001'), '-0.001');
  });

  it('When a refund balance is tracked, then partial refunds leave exactly what remains', () => {
    let remaining = '100.000';
    for (const refund of ['33.333', '33.333', '33.333']) remaining = subtractTnd(remaining, refund);
    assert.equal(remaining, '0.001');
    assert.equal(compareTnd('0.002', remaining), 1);
  });

  it('When amounts are compared, then the answer follows their value, not their text', () => {
    assert.equal(compareTnd('1.000', '1'), 0);
    assert.equal(compareTnd('9.000', '10.000'), -1);
    assert.equal(compareTnd('10.000', '9.999'), 1);
    assert.equal(compareTnd('-1.000', '0.000'), -1);
    assert.equal(compareTnd('0.000', '-0.000'), 0);
  });

  it('When an operand has more than 3 decimals, then the operation throws rather than round', () => {
    assert.throws(() => addTnd('1.0001', '1.000'), RangeError);
    assert.throws(() => subtractTnd('1.000', '0.0001'), RangeError);
    assert.throws(() => compareTnd('1.0005', '1.000'), RangeError);
  });

  it('When an operand is not a plain decimal string, then the operation throws', () => {
    assert.throws(() => addTnd('', '1.000'), RangeError);
    assert.throws(() => subtractTnd('1.000', '1e2'), RangeError);
    assert.throws(() => compareTnd('01.000', '1.000'), RangeError);
    assert.throws(() => addTnd(1 as unknown as string, '1.000'), TypeError);
  });
});
