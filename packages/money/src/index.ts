/**
 * Money for the gateway: ISO 4217 currencies, amount validation, conversion into TND,
 * minor units and fees. Amounts are decimal strings or big.js values, never numbers.
 */
export type { Big } from 'big.js';
export { ACCOUNT_CURRENCY, accountCurrency, currencies, findCurrency } from './currencies.js';
export type { Currency } from './currencies.js';
export { MAX_AMOUNT, amountMessage, checkAmount } from './amount.js';
export type { AmountCheck, AmountErrorCode } from './amount.js';
export { IDENTITY_RATE, convertToAccountCurrency, parseRate } from './conversion.js';
export { addTnd, compareTnd, exactTnd, formatTnd, subtractTnd } from './tnd.js';
export { fromMinorUnits, toMinorUnits } from './minor-units.js';
export { computeFee, parsePricing } from './fees.js';
export type { Pricing } from './fees.js';
