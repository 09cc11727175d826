/**
 * A merchant's live Flouci application (D26), as its owner saves or removes it
 * in the dashboard's Settings (the role is the dashboard's to check). Test mode
 * needs none: it always uses the sandbox's Flouci. The keys are checked before
 * anything is stored; the private key is never answered back. Each change is
 * announced by wallet.connected, from which the session service learns whether
 * the hosted page offers Flouci in live mode.
 */
import { SealedCardError } from '@gateway/card-sealing';
import { flouciKeyScope, type CommandReply, type CommandRequest } from '@gateway/contracts';
import { eventEnvelope } from '@gateway/messaging';
import { validationError, type FieldError } from '@gateway/problem';
import type { WalletAccountSummary, WalletKeys } from '../db/wallet-account.repository.js';
import type { AdapterDeps } from './deps.js';

type WalletSettings = CommandReply<'wallet.settings.get'>;

/** The longest key taken: Flouci's are far shorter, and both travel in every call's Authorization header. */
const WALLET_KEY_MAX_LENGTH = 200;

/** Visible ASCII: what an HTTP header carries as it is, with no space to be lost when pasted. */
const PRINTABLE = /^[!-~]+$/;

/** wallet.settings.get: whether the merchant's live Flouci is connected, and its public key. */
export async function getWalletSettings(deps: AdapterDeps, command: CommandRequest<'wallet.settings.get'>): Promise<WalletSettings> {
  return settingsOf(command.merchant_id, await deps.walletAccounts.findSummary(command.merchant_id));
}

/** wallet.settings.set: saves the merchant's live Flouci keys once they pass the checks, or removes them (`flouci: null`). */
export async function setWalletSettings(deps: AdapterDeps, command: CommandRequest<'wallet.settings.set'>, correlationId: string): Promise<WalletSettings> {
  const merchantId = command.merchant_id;
  const announce = (connected: boolean) => () => eventEnvelope('wallet.connected', { merchant_id: merchantId, livemode: true, connected }, correlationId, deps.clock());
  if (command.flouci === null) {
    if (await deps.walletAccounts.remove(merchantId, announce(false))) {
      deps.afterCommit();
      deps.log.info({ merchantId }, 'live Flouci keys removed');
    }
    return settingsOf(merchantId, undefined);
  }
  const keys = { publicKey: command.flouci.public_key, privateKey: openPrivateKey(deps, merchantId, command.flouci.private_key_sealed) };
  const errors = keyErrors(keys);
  if (errors.length > 0) throw validationError(errors);
  const updatedAt = await deps.walletAccounts.set(merchantId, keys, announce(true));
  deps.afterCommit();
  deps.log.info({ merchantId }, 'live Flouci keys saved');
  return settingsOf(merchantId, { publicKey: keys.publicKey, updatedAt, rejected: false });
}

/**
 * The private key as the dashboard sealed it for the adapter (D26: never in
 * clear on the broker); one that does not open for this merchant's keys is
 * refused as a key that cannot be read.
 */
function openPrivateKey(deps: AdapterDeps, merchantId: string, sealed: string): string {
  try {
    return deps.cards.openSecret(sealed, flouciKeyScope(merchantId));
  } catch (err) {
    if (!(err instanceof SealedCardError)) throw err;
    deps.log.warn({ merchantId, reason: err.message }, 'sealed Flouci private key refused');
    throw validationError([{ field: 'flouci.private_key', code: 'invalid', message: 'The private key could not be read; type it again.' }]);
  }
}

/** The refusals of each key, in the words the dashboard translates. */
const REFUSALS = {
  public_key: {
    required: 'Give the public key.',
    too_long: `The public key must be at most ${WALLET_KEY_MAX_LENGTH} characters.`,
    invalid: 'The public key may hold only visible characters, without spaces.',
  },
  private_key: {
    required: 'Give the private key.',
    too_long: `The private key must be at most ${WALLET_KEY_MAX_LENGTH} characters.`,
    invalid: 'The private key may hold only visible characters, without spaces.',
  },
} as const;

/**
 * What is wrong with the keys, every error at once (never a key itself): each
 * must be visible characters, at most WALLET_KEY_MAX_LENGTH of them, and the
 * public key may not hold ':', which joins the two in the Authorization
 * header (WALLET.md).
 */
export function keyErrors(keys: WalletKeys): FieldError[] {
  const errors: FieldError[] = [];
  const check = (name: keyof typeof REFUSALS, value: string) => {
    const code = value === '' ? 'required' : value.length > WALLET_KEY_MAX_LENGTH ? 'too_long' : !PRINTABLE.test(value) ? 'invalid' : undefined;
    if (code !== undefined) errors.push({ field: `flouci.${name}`, code, message: REFUSALS[name][code] });
    return code === undefined;
  };
  if (check('public_key', keys.publicKey) && keys.publicKey.includes(':')) {
    errors.push({ field: 'flouci.public_key', code: 'invalid', message: 'The public key may not hold ":".' });
  }
  check('private_key', keys.privateKey);
  return errors;
}

function settingsOf(merchantId: string, saved: WalletAccountSummary | undefined): WalletSettings {
  return {
    merchant_id: merchantId,
    flouci: saved
      ? { connected: !saved.rejected, rejected: saved.rejected, public_key: saved.publicKey, updated_at: saved.updatedAt.toISOString() }
      : { connected: false, rejected: false, public_key: null, updated_at: null },
  };
}
