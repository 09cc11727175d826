/**
 * Terminals (D13 `terminal set`) and pricing (`fees set`), and how the
 * operations console reads them (D15). Test mode always uses the built-in
 * sandbox terminal; live mode the merchant's own.
 */
import type { CommandReply, CommandRequest, TerminalStatus } from '@gateway/contracts';
import { parsePricing } from '@gateway/money';
import { validationError } from '@gateway/problem';
import type { Terminal } from '../acquirer/acquirer.js';
import type { TerminalRow } from '../db/terminal.repository.js';
import type { AdapterDeps } from './deps.js';

export type ResolvedTerminal = { status: 'active'; terminal: Terminal } | { status: Exclude<TerminalStatus, 'active'> };

/** The terminal a payment of the merchant's goes to: test mode's sandbox, or its own live terminal when that can take one. */
export async function resolveTerminal(deps: AdapterDeps, merchantId: string, livemode: boolean): Promise<ResolvedTerminal> {
  if (!livemode) return { status: 'active', terminal: deps.sandbox };
  return liveTerminal(await deps.terminals.find(merchantId, true), deps.liveUrl);
}

/**
 * The merchant's live terminal as a payment can use it, on the live acquirer:
 * none configured, switched off by an operator, or with credentials the
 * acquirer refused, it cannot take a payment (in that order).
 */
export function liveTerminal(row: Pick<TerminalRow, 'user_name' | 'password' | 'active' | 'rejected_at'> | undefined, liveUrl: string): ResolvedTerminal {
  if (!row) return { status: 'missing' };
  if (!row.active) return { status: 'inactive' };
  if (row.rejected_at) return { status: 'rejected' };
  return { status: 'active', terminal: { baseUrl: liveUrl, userName: row.user_name, password: row.password } };
}

/** terminal.check: whether the merchant's live terminal can take a payment. */
export async function checkTerminal(deps: AdapterDeps, merchantId: string): Promise<TerminalStatus> {
  return (await resolveTerminal(deps, merchantId, true)).status;
}

/** terminal.set: the merchant's live terminal's credentials and whether it is active (D13). */
export async function setTerminal(deps: AdapterDeps, command: CommandRequest<'terminal.set'>): Promise<CommandReply<'terminal.set'>> {
  await deps.terminals.upsert(command.merchant_id, true, { userName: command.user, password: command.password, active: command.active });
  deps.log.info({ merchantId: command.merchant_id, active: command.active }, 'live terminal set');
  return { merchant_id: command.merchant_id, mode: 'live', user: command.user, active: command.active };
}

/** fees.set: the merchant's own pricing (D13). */
export async function setFees(deps: AdapterDeps, command: CommandRequest<'fees.set'>): Promise<CommandReply<'fees.set'>> {
  const pricing = parsePricing(command.percent, command.fixed);
  if (!pricing) {
    throw validationError([
      { field: 'percent', code: 'invalid', message: 'percent must be a decimal from 0 to 100 with at most 4 decimals, and fixed a TND amount with at most 3 decimals.' },
    ]);
  }
  await deps.terminals.setPricing(command.merchant_id, pricing);
  return { merchant_id: command.merchant_id, percent: pricing.percent, fixed: pricing.fixed };
}

/**
 * Whether the merchant has a terminal of the mode, its user name and whether it is active; never
 * its password. A test-mode payment always goes to the built-in sandbox
 * terminal, which is the gateway's, not the merchant's: configured, no user name.
 */
export async function getTerminal(deps: AdapterDeps, command: CommandRequest<'terminal.get'>): Promise<CommandReply<'terminal.get'>> {
  if (command.mode === 'test') return { merchant_id: command.merchant_id, mode: 'test', configured: true, user_name: null, active: true };
  const terminal = await deps.terminals.findSummary(command.merchant_id, true);
  return { merchant_id: command.merchant_id, mode: 'live', configured: terminal !== undefined, user_name: terminal?.user_name ?? null, active: terminal?.active ?? null };
}

/** The pricing the merchant's payments are charged: its own (`fees set`), else the configured default (`default: true`). */
export async function getFees(deps: AdapterDeps, command: CommandRequest<'fees.get'>): Promise<CommandReply<'fees.get'>> {
  const own = await deps.terminals.findPricing(command.merchant_id);
  // Both go through parsePricing, so a stored '2.5000' reads '2.5', as `fees set` answered it.
  const pricing = parsePricing((own ?? deps.defaultPricing).percent, (own ?? deps.defaultPricing).fixed);
  if (!pricing) throw new Error('the pricing in force is not valid');
  return { merchant_id: command.merchant_id, percent: pricing.percent, fixed: pricing.fixed, default: own === undefined };
}
