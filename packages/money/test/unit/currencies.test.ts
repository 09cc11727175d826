import assert from 'node:assert/strict';
import { ACCOUNT_CURRENCY, accountCurrency, currencies, findCurrency } from '../../src/index.js';

describe('currencies', () => {
  it('When the table is read, then it holds at least 150 active codes', () => {
    assert.ok(currencies.size >= 150, `only ${currencies.size} currencies`);
  });

  it('When every entry is inspected, then codes are 3 upper-case letters keyed by themselves, numerics 3 digits and minor units 0 to 4', () => {
    for (const [key, currency] of currencies) {
      assert.equal(key, currency.code);
      assert.match(currency.code, /^[A-Z]{3}$/);
      assert.match(currency.numeric, /^\d{3}$/, currency.code);
      assert.ok(Number.isInteger(currency.minorUnits), currency.code);
      assert.ok(currency.minorUnits >= 0 && currency.minorUnits <= 4, currency.code);
      assert.ok(currency.name.length > 0, currency.code);
    }
  });

  it('When numeric codes are collected, then no two currencies share one', () => {
    const numerics = [...currencies.values()].map((c) => c.numeric);
    assert.equal(new Set(numerics).size, numerics.length);
  });

  it('When TND is looked up, then it is the Tunisian dinar, numeric 788, 3 decimals, and the account currency', () => {
    assert.equal(ACCOUNT_CURRENCY, 'TND');
    assert.deepEqual({ ...findCurrency('TND') }, { code: 'TND', numeric: '788', minorUnits: 3, name: 'Tunisian Dinar' });
    assert.equal(accountCurrency, findCurrency('TND'));
  });

  const expected: ReadonlyArray<readonly [string, string, number]> = [
    ['EUR', '978', 2], ['USD', '840', 2], ['GBP', '826', 2], ['JPY', '392', 0], ['KWD', '414', 3],
    ['BHD', '048', 3], ['LYD', '434', 3], ['OMR', '512', 3], ['JOD', '400', 3], ['IQD', '368', 3],
    ['CLF', '990', 4], ['UYW', '927', 4], ['CLP', '152', 0], ['KRW', '410', 0], ['XOF', '952', 0],
    ['ISK', '352', 0], ['DZD', '012', 2], ['MAD', '504', 2], ['ALL', '008', 2], ['XCG', '532', 2],
    ['ZWG', '924', 2], ['SLE', '925', 2], ['VED', '926', 2], ['XAD', '396', 2],
  ];
  for (const [code, numeric, minorUnits] of expected) {
    it(`When ${code} is looked up, then it has numeric ${numeric} and ${minorUnits} minor units`, () => {
      const currency = findCurrency(code);
      assert.ok(currency);
      assert.equal(currency.numeric, numeric);
      assert.equal(currency.minorUnits, minorUnits);
    });
  }

  it('When a code is given in lower or mixed case, then the same currency is found', () => {
    assert.equal(findCurrency('tnd'), findCurrency('TND'));
    assert.equal(findCurrency('Eur'), findCurrency('EUR'));
    assert.equal(findCurrency('jPy')?.code, 'JPY');
  });

  for (const code of ['ANG', 'BGN', 'CUC', 'HRK', 'SLL', 'ZWL', 'FRF', 'DEM']) {
    it(`When the withdrawn code ${code} is looked up, then it is not found`, () => {
      assert.equal(findCurrency(code), undefined);
    });
  }

  for (const code of ['XAU', 'XDR', 'XTS', 'XXX']) {
    it(`When ${code}, whose minor unit ISO gives as N.A., is looked up, then it is not found`, () => {
      assert.equal(findCurrency(code), undefined);
    });
  }

  for (const code of ['', 'TN', 'TNDX', ' TND', 'TND ', 'ABC', '788', 'uſd', 'usd\n']) {
    it(`When the code ${JSON.stringify(code)} is looked up, then it is not found`, () => {
      assert.equal(findCurrency(code), undefined);
    });
  }

  it('When a caller tries to change a currency entry, then the entry stays as it was', () => {
    const tnd = findCurrency('TND');
    assert.ok(tnd);
    assert.throws(() => { (tnd as { minorUnits: number }).minorUnits = 2; }, TypeError);
    assert.equal(findCurrency('TND')?.minorUnits, 3);
  });
});
