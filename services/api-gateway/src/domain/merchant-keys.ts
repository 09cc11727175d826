/**
 * What the commands on a merchant's keys share: the merchant they are about
 * (404 when there is none), and a new key of it.
 */
import { newId, newSecret } from '@gateway/contracts';
import type { PoolClient } from '@gateway/db';
import { AppError } from '@gateway/problem';
import type { MerchantRow } from '../db/merchant.repository.js';
import type { AdminDeps } from './deps.js';

/** The merchant, or the problem that there is no such merchant. */
export function requireMerchant(merchant: MerchantRow | undefined): MerchantRow {
  if (!merchant) throw new AppError('not-found', 'No such merchant.');
  return merchant;
}

/** Stores a new key of `merchant` (locked in `tx`); a live key only once its business verification is approved. */
export async function issueKey(deps: AdminDeps, tx: PoolClient, merchant: MerchantRow, livemode: boolean): Promise<{ keyId: string; secret: string }> {
  if (livemode && !merchant.kyb_approved_at) throw new AppError('forbidden', 'Live keys need approved business verification (merchant approve-kyb).');
  const key = { keyId: newId('key'), secret: newSecret(livemode ? 'sk_live_' : 'sk_test_') };
  await deps.merchants.insertKey(tx, { id: key.keyId, merchantId: merchant.id, livemode, secret: key.secret });
  return key;
}
