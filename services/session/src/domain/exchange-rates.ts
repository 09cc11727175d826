/** A merchant's exchange rates: operator commands (D13 `rate set` / `rate remove`) and the dashboard's settings page (D14). */
import type { CommandReply, CommandRequest } from '@gateway/contracts';
import { findCurrency, parseRate } from '@gateway/money';
import { validationError } from '@gateway/problem';
import type { ExchangeRateRepository } from '../db/exchange-rate.repository.js';

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
