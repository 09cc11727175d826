/**
 * Operator commands on merchants, keys and limits (D13). Each change commits
 * with the event that tells every gateway replica to drop what it cached.
 */
import { newId, newSecret, type CommandReply, type CommandRequest, type Mode } from '@gateway/contracts';
import { webhookUrlError } from '@gateway/webhook-address';
import { eventEnvelope } from '@gateway/messaging';
import { AppError, validationError } from '@gateway/problem';
import { budgetsInForce } from '../limits/budgets.js';
import type { AdminDeps } from './deps.js';
import { issueKey, requireMerchant } from './merchant-keys.js';

const ORDER_PREFIX = /^[A-Z0-9]{1,3}$/;

/** The first three letters or digits of the name, upper-cased; `M` when it has none. */
function defaultOrderPrefix(name: string): string {
  const letters = name
    .normalize('NFKD')
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '');
  return letters.slice(0, 3) || 'M';
}

/** A new merchant with its test key, shown only in this reply; merchant.created has its test-mode webhook endpoint made. */
export async function createMerchant(deps: AdminDeps, command: CommandRequest<'merchant.create'>, correlationId: string): Promise<CommandReply<'merchant.create'>> {
  const name = command.name.trim();
  if (!name) throw validationError([{ field: 'name', code: 'invalid', message: 'name must not be blank.' }]);
  const orderPrefix = command.order_prefix ?? defaultOrderPrefix(name);
  if (!ORDER_PREFIX.test(orderPrefix)) {
    throw validationError([{ field: 'order_prefix', code: 'invalid', message: 'order_prefix must be 1 to 3 upper-case letters or digits.' }]);
  }
  const webhookUrl = command.webhook_url;
  const refused = webhookUrl === undefined ? undefined : webhookUrlError('webhook_url', webhookUrl, { livemode: false, allowPrivate: deps.allowPrivateWebhooks });
  if (refused) throw validationError([refused]);
  const merchantId = newId('mer');
  const secret = newSecret('sk_test_');
  // merchant.created commits with the merchant: the webhook dispatcher provisions its test-mode endpoint from it, so no merchant is left without one.
  const created = { merchant_id: merchantId, name, order_prefix: orderPrefix, ...(webhookUrl !== undefined && { test_webhook_url: webhookUrl }) };
  await deps.merchants.change(async (tx) => {
    await deps.merchants.insertMerchant(tx, { id: merchantId, name, orderPrefix });
    await deps.merchants.insertKey(tx, { id: newId('key'), merchantId, livemode: false, secret });
    return { result: undefined, events: [eventEnvelope('merchant.created', created, correlationId)] };
  });
  deps.afterCommit();
  return { merchant_id: merchantId, order_prefix: orderPrefix, test_secret_key: secret };
}

/** Records business verification and issues a live key, shown only in this reply. */
export async function approveKyb(deps: AdminDeps, command: CommandRequest<'merchant.approve_kyb'>, correlationId: string): Promise<CommandReply<'merchant.approve_kyb'>> {
  const secret = newSecret('sk_live_');
  await deps.merchants.change(async (tx) => {
    requireMerchant(await deps.merchants.lockMerchant(tx, command.merchant_id));
    await deps.merchants.approveKyb(tx, command.merchant_id);
    await deps.merchants.insertKey(tx, { id: newId('key'), merchantId: command.merchant_id, livemode: true, secret });
    // merchant.kyb_approved: the webhook dispatcher provisions the live-mode endpoint from it.
    const events = [eventEnvelope('merchant.updated', { merchant_id: command.merchant_id }, correlationId), eventEnvelope('merchant.kyb_approved', { merchant_id: command.merchant_id }, correlationId)];
    return { result: undefined, events };
  });
  deps.afterCommit();
  return { merchant_id: command.merchant_id, live_secret_key: secret };
}

/** Suspends or reactivates a merchant: its keys stop or start working on every replica at once. */
export async function setMerchantStatus(
  deps: AdminDeps,
  merchantId: string,
  status: 'active' | 'suspended',
  correlationId: string,
): Promise<CommandReply<'merchant.suspend'>> {
  await deps.merchants.change(async (tx) => {
    requireMerchant(await deps.merchants.lockMerchant(tx, merchantId));
    await deps.merchants.setStatus(tx, merchantId, status);
    // merchant.suspended: the session service refuses payments on the merchant's open checkout links from it.
    const standing = eventEnvelope(status === 'suspended' ? 'merchant.suspended' : 'merchant.reactivated', { merchant_id: merchantId }, correlationId);
    return { result: undefined, events: [eventEnvelope('merchant.updated', { merchant_id: merchantId }, correlationId), standing] };
  });
  deps.auth.forgetMerchant(merchantId);
  deps.afterCommit();
  return { merchant_id: merchantId, status };
}

/** A new key; live keys only for merchants whose business verification is approved. */
export async function createKey(deps: AdminDeps, command: CommandRequest<'api_key.create'>): Promise<CommandReply<'api_key.create'>> {
  const created = await deps.merchants.change(async (tx) => {
    const merchant = requireMerchant(await deps.merchants.lockMerchant(tx, command.merchant_id));
    return { result: await issueKey(deps, tx, merchant, command.mode === 'live'), events: [] };
  });
  return { key_id: created.keyId, secret_key: created.secret };
}

/**
 * Revokes a key now, one in a rotation's grace too; from a merchant's user
 * (`merchant_id` given), only a key of that merchant. The answer, and the
 * merchant the key was of (for the audit log).
 */
export async function revokeKey(
  deps: AdminDeps,
  command: CommandRequest<'api_key.revoke'>,
  correlationId: string,
): Promise<{ revoked: CommandReply<'api_key.revoke'>; merchantId: string }> {
  const merchantId = await deps.merchants.change(async (tx) => {
    const owner = await deps.merchants.revokeKey(tx, command.key_id, command.merchant_id);
    if (!owner) throw new AppError('not-found', 'No such active key.');
    return { result: owner, events: [eventEnvelope('api_key.revoked', { merchant_id: owner, key_id: command.key_id }, correlationId)] };
  });
  deps.auth.forgetKey(command.key_id);
  deps.afterCommit();
  return { revoked: { key_id: command.key_id, revoked: true }, merchantId };
}

/**
 * `key reveal` (D12, INTERFACE 5.3): a test key's secret, shown again. A live
 * key is never stored in a form that could be shown; a revoked key is not
 * shown, it no longer works. With `merchant_id` (a merchant's user), only a
 * key of that merchant: another's is not found.
 */
export async function revealKey(deps: AdminDeps, command: CommandRequest<'api_key.reveal'>): Promise<CommandReply<'api_key.reveal'>> {
  const key = await deps.merchants.findKey(command.key_id, command.merchant_id);
  if (!key) throw new AppError('not-found', 'No such key.');
  if (key.livemode) throw new AppError('forbidden', 'Live keys are shown only once, when created; create a new live key to replace a lost one.');
  if (key.revoked) throw new AppError('forbidden', 'This key is revoked and can no longer be revealed.');
  if (!key.secret_ciphertext) {
    // Test keys made before D17 were stored only as a hash: nothing can recover them.
    throw new AppError('forbidden', 'This test key was created before test keys were stored encrypted; only its hash is kept. Create a new test key and revoke this one.');
  }
  return { key_id: command.key_id, secret_key: await deps.merchants.decryptKey(command.key_id, key.secret_ciphertext) };
}

/** Per-merchant overrides of the three budgets (D12); replies with the budgets now in force. */
export async function setLimits(deps: AdminDeps, command: CommandRequest<'limits.set'>, correlationId: string): Promise<CommandReply<'limits.set'>> {
  const given = { account: command.account, create: command.create, refund: command.refund };
  const errors = Object.entries(given)
    .filter(([, value]) => value !== undefined && (!Number.isInteger(value) || value < 1 || value > 100_000))
    .map(([field]) => ({ field, code: 'invalid', message: `${field} must be an integer from 1 to 100000 requests per second.` }));
  if (errors.length > 0) throw validationError(errors);
  const overrides = await deps.merchants.change(async (tx) => {
    requireMerchant(await deps.merchants.lockMerchant(tx, command.merchant_id));
    const stored = await deps.merchants.setLimits(tx, command.merchant_id, command.mode === 'live', {
      ...(command.account !== undefined && { account: command.account }),
      ...(command.create !== undefined && { create: command.create }),
      ...(command.refund !== undefined && { refund: command.refund }),
    });
    return { result: stored, events: [eventEnvelope('merchant.updated', { merchant_id: command.merchant_id }, correlationId)] };
  });
  deps.auth.forgetMerchant(command.merchant_id);
  deps.afterCommit();
  return { merchant_id: command.merchant_id, mode: command.mode, ...budgetsInForce(deps.budgets[command.mode satisfies Mode], overrides) };
}
