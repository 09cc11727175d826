/**
 * A merchant's live Flouci keys (D26), without servers: which keys are taken
 * (visible characters, at most 200, no ':' in the public key, which joins the
 * two in the Authorization header), every refusal at once and none naming a
 * key; a refused change stores and announces nothing; a removal announces
 * only when there were keys; the private key is never answered back.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { CardOpener, CardSealer } from '@gateway/card-sealing';
import { flouciKeyScope, type Envelope } from '@gateway/contracts';
import { AppError } from '@gateway/problem';
import type { Announcement, WalletKeys } from '../../src/db/wallet-account.repository.js';
import type { AdapterDeps } from '../../src/domain/deps.js';
import { getWalletSettings, keyErrors, setWalletSettings } from '../../src/domain/wallet-settings.js';

const MERCHANT = 'mer_0123456789abcdefghij';
const AT = new Date('2026-11-20T10:00:00.000Z');
const KEYS: WalletKeys = { publicKey: 'a1b2c3d4-app-public', privateKey: 'z9y8x7-very-private' };

/** The adapter's key pair, as the dashboard seals for it and the adapter opens. */
const adapterKey = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const sealer = CardSealer.fromJwk(JSON.stringify(adapterKey.publicKey.export({ format: 'jwk' })));
const opener = CardOpener.fromJwk(JSON.stringify(adapterKey.privateKey.export({ format: 'jwk' })));

/** A private key as the dashboard sends it: sealed for the adapter, bound to the merchant's keys. */
const sealed = (privateKey: string, merchantId = MERCHANT) => sealer.sealSecret(privateKey, flouciKeyScope(merchantId));

/** Use-case dependencies whose key store keeps one merchant's keys in memory and the events it was given. */
function deps(stored?: WalletKeys) {
  let saved = stored;
  const events: Envelope[] = [];
  let commits = 0;
  const walletAccounts = {
    findSummary: async () => saved && { publicKey: saved.publicKey, updatedAt: AT, rejected: false },
    set: async (_merchantId: string, keys: WalletKeys, announce: Announcement) => ((saved = keys), events.push(announce()), AT),
    remove: async (_merchantId: string, announce: Announcement) => {
      if (!saved) return false;
      saved = undefined;
      events.push(announce());
      return true;
    },
  };
  const log = { info: () => undefined, warn: () => undefined };
  const adapter = { walletAccounts, cards: opener, clock: () => AT, log, afterCommit: () => (commits += 1) } as unknown as AdapterDeps;
  return { adapter, events, saved: () => saved, commits: () => commits };
}

describe('Live Flouci keys', () => {
  it('when both keys are visible characters within 200, then they pass', () => {
    assert.deepEqual(keyErrors(KEYS), []);
    assert.deepEqual(keyErrors({ publicKey: 'p'.repeat(200), privateKey: '!#$%&()*+,-./;<=>?@[]^_`{|}~' }), []);
  });

  it('when keys are empty, too long, hold a space or a control character, or the public key holds a colon, then each is refused at once, without the key', () => {
    assert.deepEqual(
      keyErrors({ publicKey: '', privateKey: '' }).map((e) => [e.field, e.code]),
      [
        ['flouci.public_key', 'required'],
        ['flouci.private_key', 'required'],
      ],
    );
    assert.deepEqual(
      keyErrors({ publicKey: 'p'.repeat(201), privateKey: 'has space' }).map((e) => [e.field, e.code]),
      [
        ['flouci.public_key', 'too_long'],
        ['flouci.private_key', 'invalid'],
      ],
    );
    const colon = keyErrors({ publicKey: 'app:public', privateKey: 'tab\there' });
    assert.deepEqual(
      colon.map((e) => [e.field, e.code, e.message]),
      [
        ['flouci.public_key', 'invalid', 'The public key may not hold ":".'],
        ['flouci.private_key', 'invalid', 'The private key may hold only visible characters, without spaces.'],
      ],
    );
    assert.deepEqual(keyErrors({ publicKey: 'clé', privateKey: 'ok' }).map((e) => e.code), ['invalid'], 'only ASCII: what a header carries as it is');
    assert.ok(!JSON.stringify(colon).includes('tab'), 'no refusal repeats a key');
  });

  it('when an owner saves good keys, then they are stored, wallet.connected announces them, and the answer shows the public key only', async () => {
    const { adapter, events, saved, commits } = deps();
    const answer = await setWalletSettings(adapter, { merchant_id: MERCHANT, flouci: { public_key: KEYS.publicKey, private_key_sealed: sealed(KEYS.privateKey) } }, 'corr-1');
    assert.deepEqual(answer, { merchant_id: MERCHANT, flouci: { connected: true, rejected: false, public_key: KEYS.publicKey, updated_at: AT.toISOString() } });
    assert.ok(!JSON.stringify(answer).includes(KEYS.privateKey));
    assert.deepEqual(saved(), KEYS);
    assert.deepEqual(
      events.map((e) => [e.type, e.data, e.correlation_id]),
      [['wallet.connected', { merchant_id: MERCHANT, livemode: true, connected: true }, 'corr-1']],
    );
    assert.equal(commits(), 1, 'the relay is woken');
    assert.deepEqual(await getWalletSettings(adapter, { merchant_id: MERCHANT }), answer);
  });

  it('when the keys are refused, then nothing is stored or announced, and the problem is a validation error', async () => {
    const { adapter, events, saved } = deps(KEYS);
    await assert.rejects(
      setWalletSettings(adapter, { merchant_id: MERCHANT, flouci: { public_key: 'new:public', private_key_sealed: sealed('new-private') } }, 'corr-2'),
      (err: unknown) => err instanceof AppError && err.code === 'validation-error' && err.errors.length === 1,
    );
    // A private key sealed for another merchant's keys (or not sealed at all) does not open here.
    for (const other of [sealed('new-private', 'mer_another0123456789ab'), 'new-private']) {
      await assert.rejects(
        setWalletSettings(adapter, { merchant_id: MERCHANT, flouci: { public_key: 'new-public', private_key_sealed: other } }, 'corr-2'),
        (err: unknown) => err instanceof AppError && err.code === 'validation-error' && err.errors[0]?.field === 'flouci.private_key',
      );
    }
    assert.deepEqual(saved(), KEYS);
    assert.deepEqual(events, []);
  });

  it('when the keys are removed, then wallet.connected says not connected; removing again announces nothing', async () => {
    const { adapter, events, saved } = deps(KEYS);
    const none = { merchant_id: MERCHANT, flouci: { connected: false, rejected: false, public_key: null, updated_at: null } };
    assert.deepEqual(await setWalletSettings(adapter, { merchant_id: MERCHANT, flouci: null }, 'corr-3'), none);
    assert.equal(saved(), undefined);
    assert.deepEqual(await setWalletSettings(adapter, { merchant_id: MERCHANT, flouci: null }, 'corr-4'), none);
    assert.deepEqual(
      events.map((e) => e.data),
      [{ merchant_id: MERCHANT, livemode: true, connected: false }],
    );
    assert.deepEqual(await getWalletSettings(adapter, { merchant_id: MERCHANT }), none);
  });
});
