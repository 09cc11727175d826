/**
 * Merchants' live Flouci keys as the adapter stores them (D26, D17), on a real
 * PostgreSQL: the private key is kept encrypted, bound to its merchant, and
 * read back in clear only through `find`; each change commits with the
 * wallet.connected it is announced by, and a removal of nothing announces
 * nothing.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { newId, type Envelope } from '@gateway/contracts';
import { createPool, type Pool } from '@gateway/db';
import { eventEnvelope } from '@gateway/messaging';
import { SecretBox } from '@gateway/secrets';
import { createTestDatabase, type TestDatabase } from '@gateway/testkit';
import { WalletAccountRepository } from '../../src/db/wallet-account.repository.js';

describe('Live Flouci keys, stored', function () {
  this.timeout(60_000);
  let db: TestDatabase;
  let pool: Pool;
  let accounts: WalletAccountRepository;

  before(async () => {
    db = await createTestDatabase(['acquirer-adapter']);
    pool = createPool({ url: db.urlFor('acquirer-adapter'), schema: 'acquirer', max: 4 });
    accounts = new WalletAccountRepository(pool, await SecretBox.open(pool, { current: randomBytes(32) }));
  });
  after(async () => {
    await pool?.end();
    await db?.drop();
  });

  const announce = (merchantId: string, connected: boolean) => () => eventEnvelope('wallet.connected', { merchant_id: merchantId, livemode: true, connected }, newId('cmd'));
  const announced = async (merchantId: string) =>
    (await db.query<{ body: string }>('SELECT body FROM acquirer.outbox ORDER BY id')).map((row) => JSON.parse(row.body) as Envelope).filter((e) => (e.data as { merchant_id: string }).merchant_id === merchantId);

  it('when keys are saved, then the private key is stored encrypted and read back in clear, and wallet.connected is in the outbox', async () => {
    const merchantId = newId('mer');
    const privateKey = `private-${randomBytes(12).toString('hex')}`;
    const savedAt = await accounts.set(merchantId, { publicKey: 'public-1', privateKey }, announce(merchantId, true));

    const [row] = await db.query<{ public_key: string; private_key_ciphertext: string }>('SELECT public_key, private_key_ciphertext FROM acquirer.wallet_accounts WHERE merchant_id = $1', [merchantId]);
    assert.equal(row?.public_key, 'public-1');
    assert.ok(row && !row.private_key_ciphertext.includes(privateKey), 'not in clear');
    const current = await accounts.current(merchantId);
    assert.deepEqual(current && { ...current, id: '' }, { id: '', publicKey: 'public-1', privateKey, updatedAt: savedAt });
    assert.deepEqual(await accounts.findSummary(merchantId), { publicKey: 'public-1', updatedAt: savedAt, rejected: false });
    assert.deepEqual(
      (await announced(merchantId)).map((e) => [e.type, e.data]),
      [['wallet.connected', { merchant_id: merchantId, livemode: true, connected: true }]],
    );
  });

  it('when keys are saved again, then they start new payments, and the first are kept for the payments made with them; a ciphertext copied to another merchant does not decrypt', async () => {
    const merchantId = newId('mer');
    await accounts.set(merchantId, { publicKey: 'public-a', privateKey: 'private-a' }, announce(merchantId, true));
    const first = await accounts.current(merchantId);
    await accounts.set(merchantId, { publicKey: 'public-b', privateKey: 'private-b' }, announce(merchantId, true));
    assert.equal((await accounts.current(merchantId))?.privateKey, 'private-b');
    assert.equal((await accounts.byId(merchantId, first?.id ?? ''))?.privateKey, 'private-a');
    assert.equal(await accounts.byId(newId('mer'), first?.id ?? ''), undefined, 'only its own merchant reads it');

    const other = newId('mer');
    await db.query(
      `INSERT INTO acquirer.wallet_accounts (merchant_id, public_key, private_key_ciphertext)
       SELECT $2, public_key, private_key_ciphertext FROM acquirer.wallet_accounts WHERE merchant_id = $1 AND retired_at IS NULL`,
      [merchantId, other],
    );
    await assert.rejects(accounts.current(other));
  });

  it('when Flouci refuses the keys, then they start no payment and wallet.connected says so, once; saving keys again starts payments again', async () => {
    const merchantId = newId('mer');
    await accounts.set(merchantId, { publicKey: 'public-1', privateKey: 'private-1' }, announce(merchantId, true));
    const refused = await accounts.current(merchantId);
    assert.equal(await accounts.markRejected(refused?.id ?? '', announce(merchantId, false)), true);
    assert.equal(await accounts.markRejected(refused?.id ?? '', announce(merchantId, false)), false);
    assert.equal(await accounts.current(merchantId), undefined);
    assert.equal((await accounts.findSummary(merchantId))?.rejected, true);
    assert.equal((await accounts.byId(merchantId, refused?.id ?? ''))?.privateKey, 'private-1', 'its payments are still verified with it');
    await accounts.set(merchantId, { publicKey: 'public-2', privateKey: 'private-2' }, announce(merchantId, true));
    assert.equal((await accounts.current(merchantId))?.publicKey, 'public-2');
    assert.deepEqual(
      (await announced(merchantId)).map((e) => (e.data as { connected: boolean }).connected),
      [true, false, true],
    );
  });

  for (const before of ['with keys saved before', 'with none saved before']) {
    it(`when three saves of a merchant's keys run together (${before}), then all are saved, one after another, and one application is current`, async () => {
      const merchantId = newId('mer');
      if (before === 'with keys saved before') await accounts.set(merchantId, { publicKey: 'public-0', privateKey: 'private-0' }, announce(merchantId, true));
      const outcomes = await Promise.allSettled(['a', 'b', 'c'].map((k) => accounts.set(merchantId, { publicKey: `public-${k}`, privateKey: `private-${k}` }, announce(merchantId, true))));
      assert.deepEqual(
        outcomes.flatMap((o) => (o.status === 'rejected' ? [String(o.reason)] : [])),
        [],
      );
      const current = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM acquirer.wallet_accounts WHERE merchant_id = $1 AND retired_at IS NULL', [merchantId]);
      assert.equal(current[0]?.n, 1);
    });
  }

  it('when keys are removed, then none are found and wallet.connected says so; removing them again changes and announces nothing', async () => {
    const merchantId = newId('mer');
    await accounts.set(merchantId, { publicKey: 'public-1', privateKey: 'private-1' }, announce(merchantId, true));
    assert.equal(await accounts.remove(merchantId, announce(merchantId, false)), true);
    assert.equal(await accounts.current(merchantId), undefined);
    assert.equal(await accounts.findSummary(merchantId), undefined);
    assert.equal(await accounts.remove(merchantId, announce(merchantId, false)), false);
    assert.deepEqual(
      (await announced(merchantId)).map((e) => (e.data as { connected: boolean }).connected),
      [true, false],
    );
  });
});
