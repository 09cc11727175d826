/** Amounts, dates and shares written the way each language writes them. */
import assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { formatAmount, formatPercent, formatTunisDateTime } from '../../src/index.js';

describe('formatting for readers', () => {
  it('when amounts are formatted, then each language writes its separators and the code, every digit of the decimal string kept', () => {
    assert.equal(formatAmount('1234567.890', 'TND', 'fr'), '1\u202f234\u202f567,890\u00a0TND');
    assert.equal(formatAmount('1234567.890', 'TND', 'en'), 'TND\u00a01,234,567.890');
    assert.equal(formatAmount('1234567.890', 'TND', 'ar'), '\u200f1.234.567,890\u00a0TND');
    // Beyond what a float holds exactly: still digit for digit.
    assert.equal(formatAmount('9007199254740993.999', 'TND', 'en'), 'TND\u00a09,007,199,254,740,993.999');
    assert.equal(formatAmount('0.005', 'TND', 'fr'), '0,005\u00a0TND');
    assert.equal(formatAmount('3.7', 'EUR', 'en'), 'EUR\u00a03.70');
    assert.equal(formatAmount('1500', 'JPY', 'fr'), '1\u202f500\u00a0JPY');
    assert.equal(formatAmount('-0.500', 'TND', 'en'), '-TND\u00a00.500');
    assert.equal(formatAmount('-12.500', 'TND', 'fr'), '-12,500\u00a0TND');
  });

  it('when a date is formatted, then it is Tunis time on a 24-hour clock with Latin digits in every language', () => {
    const at = new Date('2026-01-15T13:05:00Z');
    assert.match(formatTunisDateTime(at, 'fr'), /^15 janvier 2026.* 14:05$/);
    assert.match(formatTunisDateTime(at, 'en'), /^January 15, 2026.* 14:05$/);
    assert.match(formatTunisDateTime(at, 'ar'), /15.*2026.*14:05/);
  });

  it('when a share is formatted, then each language writes its percent', () => {
    assert.equal(formatPercent(0.2567, 'en'), '25.7%');
    assert.equal(formatPercent(0.2567, 'fr'), '25,7\u00a0%');
  });
});
