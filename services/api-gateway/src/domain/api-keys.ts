/**
 * A merchant's API keys as the dashboard manages them (D14): the list (never a
 * secret) and the rotation that replaces a key, the old one working on for a
 * configured grace.
 */
import type { ApiKeySummary, CommandReply, CommandRequest } from '@gateway/contracts';
import { eventEnvelope } from '@gateway/messaging';
import { AppError, validationError } from '@gateway/problem';
import type { KeySummaryRow } from '../db/merchant.repository.js';
import type { AdminDeps } from './deps.js';
import { issueKey, requireMerchant } from './merchant-keys.js';

/** A merchant's keys, of one mode or both, newest first. */
export async function listKeys(deps: AdminDeps, command: CommandRequest<'api_key.list'>): Promise<CommandReply<'api_key.list'>> {
  if (!(await deps.merchants.findMerchant(command.merchant_id))) throw new AppError('not-found', 'No such merchant.');
  const rows = await deps.merchants.listKeys(command.merchant_id, command.mode === undefined ? undefined : command.mode === 'live');
  return { data: rows.map(keySummaryOf) };
}

function keySummaryOf(row: KeySummaryRow): ApiKeySummary {
  return {
    key_id: row.id,
    mode: row.livemode ? 'live' : 'test',
    // The hint, stored with every key since the first, is `sk_xxxx_...` and the secret's last four characters.
    last_four: row.hint.slice(-4),
    created_at: row.created_at.toISOString(),
    revoked_at: row.revoked_at?.toISOString() ?? null,
    revealable: !row.livemode && !row.revoked && row.encrypted,
  };
}

/**
 * Replaces a working key of the merchant with a new key of its mode, and
 * revokes the old one `revoke_in_seconds` from now (one of the configured
 * graces; 0: at once), in one transaction. Every replica's cache learns of it:
 * a revocation now is broadcast as api_key.revoked; a later one as
 * merchant.updated, so cached keys are read again with their revocation time,
 * which the authenticator then checks at each use.
 */
export async function rotateKey(deps: AdminDeps, command: CommandRequest<'api_key.rotate'>, correlationId: string): Promise<CommandReply<'api_key.rotate'>> {
  const grace = command.revoke_in_seconds;
  if (!deps.rotationGracesSeconds.includes(grace)) {
    throw validationError([
      { field: 'revoke_in_seconds', code: 'invalid', message: `revoke_in_seconds must be one of ${deps.rotationGracesSeconds.join(', ')}.` },
    ]);
  }
  const rotated = await deps.merchants.change(async (tx) => {
    const merchant = requireMerchant(await deps.merchants.lockMerchant(tx, command.merchant_id));
    const old = await deps.merchants.lockActiveKey(tx, command.key_id, merchant.id);
    if (!old) throw new AppError('not-found', 'No such active key.');
    const created = await issueKey(deps, tx, merchant, old.livemode);
    const revokesAt = await deps.merchants.scheduleRevocation(tx, command.key_id, grace);
    const told =
      grace === 0
        ? eventEnvelope('api_key.revoked', { merchant_id: merchant.id, key_id: command.key_id }, correlationId)
        : eventEnvelope('merchant.updated', { merchant_id: merchant.id }, correlationId);
    return { result: { ...created, revokesAt }, events: [told] };
  });
  deps.auth.forgetKey(command.key_id);
  deps.afterCommit();
  return { key_id: rotated.keyId, secret_key: rotated.secret, revoked_key_id: command.key_id, revokes_at: rotated.revokesAt.toISOString() };
}
