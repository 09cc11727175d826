/** A merchant's exchange rates: the rate a currency is taken at, operator commands (D13 `rate set` / `rate remove`) and the dashboard's settings page (D14). */
import type { CommandReply, CommandRequest } from '@gateway/contracts';
import type { ApiContext } from '@gateway/contracts';
import { findCurrency, IDENTITY_RATE, parseRate } from '@gateway/money';
import { validationError, type FieldError } from '@gateway/problem';
import type { ExchangeRateRepository } from '../db/exchange-rate.repository.js';
import { accountOf, type Account } from './accounts.js';

/**
 * The rate an account takes `code` at (D5): TND at the identity rate, another
 * currency at the account's rate, or, with none configured, the field error
 * (currency_unsupported) a session's create and a payment link's (D29) get.
 */
export async function rateFor(rates: Pick<ExchangeRateRepository, 'find'>, account: Account, code: string): Promise<{ ok: true; rate: string } | { ok: false; error: FieldError }> {
  if (code === 'TND') return { ok: true, rate: IDENTITY_RATE };
  const rate = await rates.find(account, code);
  if (rate) return { ok: true, rate };
  return { ok: false, error: { field: 'currency', code: 'currency_unsupported', message: `No exchange rate is configured for ${code}; request in TND or configure a rate.` } };
}

/** rate.check: the account's rate for `currency`, or 422 as a session in it would be refused. */
export async function checkCurrency(rates: Pick<ExchangeRateRepository, 'find'>, context: ApiContext, currency: string): Promise<{ rate: string }> {
  const found = await rateFor(rates, accountOf(context), currency.toUpperCase());
  if (!found.ok) throw validationError([found.error]);
  return { rate: found.rate };
}

function foreignCurrency(code: string): string {
  const currency = findCurrency(code);
  if (!currency) throw validationError([{ field: 'currency', code: 'invalid', message: 'currency must be an ISO 4217 code.' }]);
  if (currency.code === 'TND') throw validationError([{ field: 'currency', code: 'invalid', message: 'TND is the account currency; it needs no rate.' }]);
  return currency.code;
}

/** rate.set: the account's rate for a foreign currency, six decimals at most. */
export async function setRate(rates: ExchangeRateRepository, command: CommandRequest<'rate.set'>): Promise<CommandReply<'rate.set'>> {
  const currency = foreignCurrency(command.currency);
  const rate = parseRate(command.rate);
  if (!rate) throw validationError([{ field: 'rate', code: 'invalid', message: 'rate must be a positive decimal with at most six decimals.' }]);
  const stored = await rates.set({ merchantId: command.merchant_id, livemode: command.mode === 'live' }, currency, rate);
  return { merchant_id: command.merchant_id, mode: command.mode, currency, rate: stored };
}

/** rate.remove: the account's rate for a currency removed; whether there was one. */
export async function removeRate(rates: ExchangeRateRepository, command: CommandRequest<'rate.remove'>): Promise<CommandReply<'rate.remove'>> {
  const currency = foreignCurrency(command.currency);
  const removed = await rates.remove({ merchantId: command.merchant_id, livemode: command.mode === 'live' }, currency);
  return { merchant_id: command.merchant_id, mode: command.mode, currency, removed };
}

/** The account's rates of one mode, by currency code, as stored (six decimals, D14). */
export async function listRates(rates: ExchangeRateRepository, command: CommandRequest<'rate.list'>): Promise<CommandReply<'rate.list'>> {
  const stored = await rates.list({ merchantId: command.merchant_id, livemode: command.mode === 'live' });
  return { data: stored.map((row) => ({ currency: row.currency, rate: row.rate, updated_at: row.updated_at.toISOString() })) };
}
