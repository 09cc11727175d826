import assert from 'node:assert/strict';
import BigJs from 'big.js';
import { MAX_AMOUNT, amountMessage, checkAmount } from '../../src/index.js';
import type { AmountErrorCode, Currency } from '../../src/index.js';
import { currency } from './support.js';


const TND = currency('TND');
const EUR = currency('EUR');
const USD = currency('USD');
const GBP = currency('GBP');
const JPY = currency('JPY');
const KWD = currency('KWD');
const CLF = currency('CLF');

function assertRefused(value: unknown, on: Currency, code: AmountErrorCode): void {
  assert.deepEqual(checkAmount(value, on), { ok: false, code });
}

function assertAccepted(value: string, on: Currency): void {
  const result = checkAmount(value, on);
  assert.ok(result.ok, `${value} ${on.code} was refused: ${JSON.stringify(result)}`);
  assert.equal(result.text, value);
  assert.equal(result.amount.toFixed(on.minorUnits), value);
  assert.ok(result.amount instanceof BigJs);
}

describe('checkAmount', () => {
  describe('required', () => {
    it('When the amount is missing, then the code is required', () => {
      assertRefused(undefined, TND, 'required');
    });
  });

  describe('invalid_type', () => {
    const notStrings: ReadonlyArray<readonly [string, unknown]> = [
      ['null', null], ['the number 10.5', 10.5], ['the number 10', 10], ['the number 0', 0],
      ['NaN', Number.NaN], ['a boolean', true], ['an object', { amount: '10.000' }],
      ['an array', ['10.000']], ['a bigint', 10n], ['a Big', new BigJs('10.000')],
    ];
    for (const [label, value] of notStrings) {
      it(`When the amount is ${label}, then the code is invalid_type`, () => {
        assertRefused(value, TND, 'invalid_type');
      });
    }

    it('When the amount is a number that would also be too large, then invalid_type wins', () => {
      assertRefused(5000000, TND, 'invalid_type');
    });

    it('When the amount is a negative number, then invalid_type wins over invalid_value', () => {
      assertRefused(-5, TND, 'invalid_type');
    });

    it('When the amount is a millime integer as a number, then it is refused as invalid_type', () => {
      assertRefused(12345, TND, 'invalid_type');
    });
  });

  describe('invalid_format', () => {
    const badFormats = [
      '', '1,000.000', '01.500', '1e3', ' 1.000', '1.000 ', '+1.000', '1.', '.5', '-', '-.5', '--1.000',
      '00.000', '007', '1 000.000', '1_000.000', 'abc', '10.000 TND', '1.0.0', '0x10', 'Infinity', 'NaN',
      '١٢.٣٤٥', '1e-3', '1E3', '\t1.000', '1.000\n', '- 1.000', '1.-5',
    ];
    for (const value of badFormats) {
      it(`When the amount is ${JSON.stringify(value)}, then the code is invalid_format`, () => {
        assertRefused(value, TND, 'invalid_format');
      });
    }

    it('When "01.50" is sent for TND, then invalid_format wins over invalid_precision', () => {
      assertRefused('01.50', TND, 'invalid_format');
    });

    it('When "-01.500" is sent, then invalid_format wins over invalid_value', () => {
      assertRefused('-01.500', TND, 'invalid_format');
    });

    it('When a thousands-separated amount is too large as well, then invalid_format wins', () => {
      assertRefused('1,000,000.000', TND, 'invalid_format');
    });
  });

  describe('invalid_precision', () => {
    const cases: ReadonlyArray<readonly [string, Currency]> = [
      ['10', TND], ['10.50', TND], ['10.5', TND], ['10.0000', TND], ['0', TND], ['1.50', TND],
      ['10.5', EUR], ['10.500', EUR], ['10', EUR], ['10.5', USD], ['10', GBP],
      ['100.0', JPY], ['100.00', JPY], ['0.5', JPY],
      ['1.00', KWD], ['1.000', CLF], ['999999.9991', TND],
    ];
    for (const [value, on] of cases) {
      it(`When ${JSON.stringify(value)} is sent in ${on.code}, then the code is invalid_precision`, () => {
        assertRefused(value, on, 'invalid_precision');
      });
    }

    it('When "-1.50" is sent for TND, then invalid_precision comes before invalid_value', () => {
      assertRefused('-1.50', TND, 'invalid_precision');
    });

    it('When "-1.5" is sent for TND, then invalid_precision comes before invalid_value', () => {
      assertRefused('-1.5', TND, 'invalid_precision');
    });

    it('When a too-large TND amount has 2 decimals, then invalid_precision comes before amount_too_large', () => {
      assertRefused('1000000.00', TND, 'invalid_precision');
    });
  });

  describe('invalid_value', () => {
    const cases: ReadonlyArray<readonly [string, Currency]> = [
      ['0.000', TND], ['-0.000', TND], ['-5.000', TND], ['-1.500', TND], ['-0.001', TND],
      ['0.00', EUR], ['-10.50', EUR], ['0', JPY], ['-0', JPY], ['-100', JPY], ['0.0000', CLF],
    ];
    for (const [value, on] of cases) {
      it(`When ${JSON.stringify(value)} is sent in ${on.code}, then the code is invalid_value`, () => {
        assertRefused(value, on, 'invalid_value');
      });
    }

    it('When a negative amount is also beyond the maximum in size, then invalid_value wins', () => {
      assertRefused('-5000000.000', TND, 'invalid_value');
    });
  });

  describe('amount_too_large', () => {
    const cases: ReadonlyArray<readonly [string, Currency]> = [
      ['1000000.000', TND], ['1000000.001', TND],
      ['99999999999999999999999.000', TND], ['1000000.00', EUR], ['1000000', JPY], ['1000000.000', KWD],
      ['1000000.0000', CLF],
    ];
    for (const [value, on] of cases) {
      it(`When ${JSON.stringify(value)} is sent in ${on.code}, then the code is amount_too_large`, () => {
        assertRefused(value, on, 'amount_too_large');
      });
    }

    it('When a JPY amount exceeds 999999.999 only numerically, then the TND maximum still applies to it', () => {
      assertRefused('1000000', JPY, 'amount_too_large');
      assertAccepted('999999', JPY);
    });
  });

  describe('accepted amounts', () => {
    const cases: ReadonlyArray<readonly [string, Currency]> = [
      ['999999.999', TND], ['0.001', TND], ['12.345', TND], ['10.000', TND], ['100.500', TND],
      ['10.50', EUR], ['0.01', EUR], ['999999.99', EUR], ['10.50', USD], ['1.00', GBP],
      ['100', JPY], ['1', JPY], ['999999', JPY], ['1.000', KWD], ['1.2345', CLF],
    ];
    for (const [value, on] of cases) {
      it(`When ${JSON.stringify(value)} is sent in ${on.code}, then it is accepted with the same text`, () => {
        assertAccepted(value, on);
      });
    }

    it('When the maximum itself is sent, then it is accepted', () => {
      assert.equal(MAX_AMOUNT, '999999.999');
      assertAccepted(MAX_AMOUNT, TND);
    });

    it('When an amount is accepted, then its Big refuses to turn into a float implicitly', () => {
      const result = checkAmount('12.345', TND);
      assert.ok(result.ok);
      assert.throws(() => +result.amount);
      assert.equal(`${result.amount.toString()}`, '12.345');
    });
  });
});

describe('amountMessage', () => {
  it('When an amount is refused, then the sentence names the rule, with the currency’s decimals for precision', () => {
    const tnd = TND;
    const jpy = currency('JPY');
    assert.equal(amountMessage('invalid_precision', tnd), 'amount must have exactly 3 decimal places for TND.');
    assert.equal(amountMessage('invalid_precision', jpy), 'amount must have exactly 0 decimal places for JPY.');
    assert.equal(amountMessage('amount_too_large', tnd), 'amount must not exceed 999999.999 TND.');
    assert.equal(amountMessage('invalid_value', tnd), 'amount must be greater than zero.');
  });
});
