/** The secret box and the data migration against the real PostgreSQL: one schema of its own per test. */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createPool, type Pool } from '@gateway/db';
import { createTestDatabase, uniqueName, type TestDatabase } from '@gateway/testkit';
import { encryptPlaintextColumns, kekId, SecretBox, SecretsError } from '../src/index.js';

const DATA_KEYS = `CREATE TABLE data_keys (
  id text PRIMARY KEY, kek_id text NOT NULL, wrapped_key text NOT NULL, active boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(), rewrapped_at timestamptz
);
CREATE UNIQUE INDEX data_keys_one_active ON data_keys (active) WHERE active;`;

describe('secrets, secret box (PostgreSQL)', function () {
  this.timeout(30_000);
  let db: TestDatabase;
  const pools: Pool[] = [];

  before(async () => {
    db = await createTestDatabase([]);
  });

  after(async () => {
    await Promise.all(pools.map((pool) => pool.end()));
    await db?.drop();
  });

  /** A pool on a new schema holding data_keys (and `extra` SQL). */
  async function schema(extra = ''): Promise<Pool> {
    const name = uniqueName('sec');
    await db.query(`CREATE SCHEMA ${name}; SET LOCAL search_path = ${name}; ${DATA_KEYS} ${extra}`);
    const pool = createPool({ url: db.adminUrl, schema: name, max: 4 });
    pools.push(pool);
    return pool;
  }

  it('when replicas open the box at once, then one active data key is made and every replica encrypts with it', async () => {
    const pool = await schema();
    const kek = randomBytes(32);
    const boxes = await Promise.all([1, 2, 3].map(() => SecretBox.open(pool, { current: kek })));
    const rows = (await pool.query<{ id: string; kek_id: string; active: boolean; wrapped_key: string }>('SELECT * FROM data_keys')).rows;
    assert.equal(rows.length, 1);
    assert.deepEqual([rows[0]?.active, rows[0]?.kek_id], [true, kekId(kek)]);
    const ciphertext = (boxes[0] as SecretBox).encrypt('whsec_1', 'a:1');
    assert.equal(ciphertext.split('.')[1], rows[0]?.id);
    assert.equal(await (boxes[2] as SecretBox).decrypt(ciphertext, 'a:1'), 'whsec_1');
    await assert.rejects((boxes[1] as SecretBox).decrypt(ciphertext, 'a:2'), SecretsError);
  });

  it('when the KEK is rotated (new as SECRETS_KEK, old as previous), rewrapped, and the old one removed, then every secret still decrypts', async () => {
    const pool = await schema();
    const oldKek = randomBytes(32);
    const newKek = randomBytes(32);
    const ciphertext = (await SecretBox.open(pool, { current: oldKek })).encrypt('pw-1', 'terminal:1');

    await assert.rejects(SecretBox.open(pool, { current: newKek }), (err: Error) => err instanceof SecretsError && err.message.includes(kekId(oldKek)) && /SECRETS_KEK_PREVIOUS/.test(err.message));
    const rotating = await SecretBox.open(pool, { current: newKek, previous: oldKek });
    assert.equal(await rotating.decrypt(ciphertext, 'terminal:1'), 'pw-1');
    assert.deepEqual(await rotating.rewrap(), { data_keys: 1, rewrapped: 1 });
    assert.deepEqual(await rotating.rewrap(), { data_keys: 1, rewrapped: 0 });

    const after = await SecretBox.open(pool, { current: newKek });
    assert.equal(await after.decrypt(ciphertext, 'terminal:1'), 'pw-1');
    const stored = (await pool.query<{ kek_id: string; rewrapped_at: Date | null }>('SELECT kek_id, rewrapped_at FROM data_keys')).rows;
    assert.equal(stored[0]?.kek_id, kekId(newKek));
    assert.ok(stored[0]?.rewrapped_at);
  });

  it('when a data key made after a box opened is used, then the box reads it once from the table', async () => {
    const pool = await schema();
    const kek = randomBytes(32);
    const early = await SecretBox.open(pool, { current: kek });
    // Another replica's key, as after a data-key rotation: only the active one changes.
    await pool.query('UPDATE data_keys SET active = false');
    const later = await SecretBox.open(pool, { current: kek });
    const ciphertext = later.encrypt('sk_test_x', 'key:1');
    assert.notEqual(ciphertext.split('.')[1], early.encrypt('y', 'key:1').split('.')[1]);
    assert.equal(await early.decrypt(ciphertext, 'key:1'), 'sk_test_x');
  });

  it('when clear columns exist, then they are encrypted with their binding and dropped, once, however many replicas start together', async () => {
    const pool = await schema(`CREATE TABLE endpoints (merchant_id text, livemode boolean, secret text NOT NULL, previous_secret text,
      secret_ciphertext text, previous_secret_ciphertext text, PRIMARY KEY (merchant_id, livemode));
      INSERT INTO endpoints (merchant_id, livemode, secret, previous_secret) VALUES ('mer_a', false, 'whsec_a', NULL), ('mer_b', true, 'whsec_b', 'whsec_b_old');`);
    const box = await SecretBox.open(pool, { current: randomBytes(32) });
    const aad = (column: string) => (row: Record<string, unknown>) => `${column}:${String(row['merchant_id'])}:${String(row['livemode'])}`;
    const spec = {
      table: 'endpoints',
      key: ['merchant_id', 'livemode'],
      columns: [
        { plain: 'secret', cipher: 'secret_ciphertext', aad: aad('secret') },
        { plain: 'previous_secret', cipher: 'previous_secret_ciphertext', nullable: true, aad: aad('previous_secret') },
      ],
    };
    const counts = await Promise.all([1, 2].map(() => encryptPlaintextColumns(pool, box, spec)));
    assert.deepEqual(counts.sort(), [0, 2]);
    const rows = (await pool.query<Record<string, string | null>>('SELECT * FROM endpoints ORDER BY merchant_id')).rows;
    assert.deepEqual(Object.keys(rows[0] ?? {}).sort(), ['livemode', 'merchant_id', 'previous_secret_ciphertext', 'secret_ciphertext']);
    assert.equal(await box.decrypt(rows[1]?.['secret_ciphertext'] ?? '', 'secret:mer_b:true'), 'whsec_b');
    assert.equal(await box.decrypt(rows[1]?.['previous_secret_ciphertext'] ?? '', 'previous_secret:mer_b:true'), 'whsec_b_old');
    assert.equal(rows[0]?.['previous_secret_ciphertext'], null);
    await assert.rejects(pool.query('INSERT INTO endpoints (merchant_id, livemode) VALUES ($1, false)', ['mer_c']), /null value/);
    assert.equal(await encryptPlaintextColumns(pool, box, spec), 0);
  });
});
