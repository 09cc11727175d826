import assert from 'node:assert/strict';
import { findCurrency, type Currency } from '../../src/index.js';

/** The currency of `code`; fails the test when the table lacks it. */
export function currency(code: string): Currency {
  const found = findCurrency(code);
  assert.ok(found, code);
  return found;
}
