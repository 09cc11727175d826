/**
 * The package's own big.js constructor and the strict decimal grammar every money
 * string goes through. Internal: other files of the package import it, the index does not.
 */
import BigJs from 'big.js';
import type { Big } from 'big.js';

/** Our own constructor, so configuring it never changes the global Big other code may use. */
export const Decimal = BigJs();
Decimal.RM = BigJs.roundHalfUp;
// Numbers are refused outright (new Decimal(0.1) throws) and valueOf throws, so a
// Big can never slip into float arithmetic through `+` or `<`.
Decimal.strict = true;
// Plain notation always: toString must never answer '1e-7' for a money value.
Decimal.NE = -1e6;
Decimal.PE = 1e6;

export const HALF_UP = BigJs.roundHalfUp;

/**
 * D5 amount grammar: optional '-', then '0' or a digit 1-9 followed by digits, then
 * optionally '.' and one or more digits. Big.js alone would also take '1e3', '.5', '+1', ' 1'.
 */
export const DECIMAL_FORMAT = /^-?(?:0|[1-9]\d*)(?:\.\d+)?$/;

/** Digits after the decimal point of a string that matched DECIMAL_FORMAT. */
export function decimalPlaces(text: string): number {
  const dot = text.indexOf('.');
  return dot === -1 ? 0 : text.length - dot - 1;
}

/**
 * A Big from our constructor for a value callers hand in. A string must match
 * DECIMAL_FORMAT and have at most maxPlaces decimals; anything else is a programming
 * error upstream (validated input was expected), hence a throw rather than a result.
 */
export function toDecimal(value: Big | string, what: string, maxPlaces = Infinity): Big {
  if (typeof value === 'string') {
    if (!DECIMAL_FORMAT.test(value)) throw new RangeError(`${what} is not a decimal string: ${JSON.stringify(value)}`);
    if (decimalPlaces(value) > maxPlaces) throw new RangeError(`${what} has more than ${maxPlaces} decimals: ${value}`);
    return new Decimal(value);
  }
  // All big.js constructors share one prototype, so this also accepts a Big made by another clone.
  if (value instanceof BigJs) {
    // Re-wrapped so our settings apply: big.js rounds with the settings of the
    // constructor that made the value an operation is called on.
    const copy = new Decimal(value);
    if (Number.isFinite(maxPlaces) && !copy.round(maxPlaces, BigJs.roundDown).eq(copy)) {
      throw new RangeError(`${what} has more than ${maxPlaces} decimals: ${copy.toString()}`);
    }
    return copy;
  }
  throw new TypeError(`${what} must be a decimal string or a Big`);
}

/** A value rounded half-up to dp decimals, written with exactly dp decimals and never as '-0.000'. */
export function toFixedHalfUp(value: Big, dp: number): string {
  // Rounding first makes a result that rounds to zero an actual zero, which toFixed prints unsigned.
  return value.round(dp, HALF_UP).toFixed(dp);
}
