/**
 * Conversion (D5) and fees (D13) checked against an independent oracle: the
 * same rules computed in integer millimes with BigInt, over a few thousand
 * seeded random amounts, rates and pricings. A drift in rounding, scale or
 * capping in the big.js code shows here even where no hand-picked case sits.
 */
import assert from 'node:assert/strict';
import { computeFee, convertToAccountCurrency, findCurrency } from '../../src/index.js';

/** A small seeded generator (mulberry32), so a failure is repeatable. */
function random(seed: number): (below: number) => number {
  let state = seed >>> 0;
  return (below) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * below);
  };
}

/** `units` of 10^-decimals as a decimal string: 12345n, 3 → "12.345". */
function decimal(units: bigint, decimals: number): string {
  if (decimals === 0) return units.toString();
  const text = units.toString().padStart(decimals + 1, '0');
  return `${text.slice(0, -decimals)}.${text.slice(-decimals)}`;
}

/** numerator / denominator rounded half-up (both positive). */
function halfUp(numerator: bigint, denominator: bigint): bigint {
  const quotient = numerator / denominator;
  return 2n * (numerator % denominator) >= denominator ? quotient + 1n : quotient;
}

const MAX_MILLIMES = 999_999_999n;

describe('Conversion against an integer oracle', () => {
  it('when random amounts in 0, 2 and 3 decimal currencies are converted at random rates, then each result is the half-up millime of the exact product', () => {
    const next = random(20261122);
    for (const code of ['JPY', 'EUR', 'KWD']) {
      const decimals = findCurrency(code)?.minorUnits ?? assert.fail(code);
      for (let i = 0; i < 500; i += 1) {
        // Amounts across the whole range, and rates from a millionth to a few thousand.
        const amountUnits = BigInt(1 + next(10 ** (1 + next(9))));
        const rateMicros = BigInt(1 + next(10 ** (1 + next(9))));
        const amount = decimal(amountUnits, decimals);
        const rate = decimal(rateMicros, 6);
        const millimes = halfUp(amountUnits * rateMicros, 10n ** BigInt(decimals + 3));
        const expected =
          millimes === 0n ? { ok: false, code: 'invalid_value' } : millimes > MAX_MILLIMES ? { ok: false, code: 'amount_too_large' } : { ok: true, amount: decimal(millimes, 3) };
        assert.deepEqual(convertToAccountCurrency(amount, rate), expected, `${code} ${amount} at ${rate}`);
      }
    }
  });
});

describe('Fees against an integer oracle', () => {
  it('when random amounts are priced at random percentages and fixed parts, then fee is the half-up millime, capped at the amount, and fee + net is the amount', () => {
    const next = random(788);
    for (let i = 0; i < 1000; i += 1) {
      const amountMillimes = BigInt(next(10 ** (1 + next(9))));
      // Percent with up to 4 decimals, 0 to 100; fixed from 0 to 5 TND.
      const percentTenThousandths = BigInt(next(1_000_001));
      const fixedMillimes = BigInt(next(5_001));
      const pricing = { percent: decimal(percentTenThousandths, 4), fixed: decimal(fixedMillimes, 3) };
      const computed = halfUp(amountMillimes * percentTenThousandths, 1_000_000n) + fixedMillimes;
      const fee = computed > amountMillimes ? amountMillimes : computed;
      assert.deepEqual(
        computeFee(decimal(amountMillimes, 3), pricing),
        { fee: decimal(fee, 3), net: decimal(amountMillimes - fee, 3) },
        `${decimal(amountMillimes, 3)} at ${pricing.percent} % + ${pricing.fixed}`,
      );
    }
  });
});
