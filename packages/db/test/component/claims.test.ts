/** Claims of due rows against the real PostgreSQL: replicas claiming side by side never take the same row. One schema of its own per test. */
import assert from 'node:assert/strict';
import { createTestDatabase, uniqueName, type TestDatabase } from '@gateway/testkit';
import { createPool, inBatches, leaseClaim, purgeBatch, skipLocked, withTransaction, type Pool } from '../../src/index.js';

const ROWS = 300;
const BATCH = 7;

/** A claim of up to $1 due jobs, each then leased for $2 seconds to claimer $3. */
const CLAIM = leaseClaim({
  table: 'jobs j',
  key: 'id',
  where: 'j.due_at <= now()',
  orderBy: 'j.due_at',
  limit: '$1',
  set: 'due_at = now() + make_interval(secs => $2), claims = j.claims + 1, owner = $3',
  returning: 'j.id, j.claims',
  then: 'SELECT id, claims FROM claimed ORDER BY id',
});

describe('claims of due rows (PostgreSQL)', function () {
  this.timeout(60_000);
  let db: TestDatabase;
  const pools: Pool[] = [];

  before(async () => {
    db = await createTestDatabase([]);
  });

  after(async () => {
    await Promise.all(pools.map((pool) => pool.end()));
    await db?.drop();
  });

  /** A pool on a new schema holding `rows` jobs, all due, oldest first by id. */
  async function jobs(rows: number): Promise<Pool> {
    const name = uniqueName('claims');
    await db.query(
      `CREATE SCHEMA ${name};
       CREATE TABLE ${name}.jobs (id integer PRIMARY KEY, due_at timestamptz NOT NULL, claims integer NOT NULL DEFAULT 0, owner text);
       INSERT INTO ${name}.jobs (id, due_at) SELECT n, now() - make_interval(secs => ${rows} - n) FROM generate_series(1, ${rows}) n`,
    );
    const pool = createPool({ url: db.adminUrl, schema: name, max: 8 });
    pools.push(pool);
    return pool;
  }

  it('when two claimers take leases side by side until nothing is due, then every row is claimed once, by one of them', async () => {
    const pool = await jobs(ROWS);
    const claimedBy = new Map<number, string>();
    const claimer = (owner: string) =>
      inBatches({ size: BATCH }, async () => {
        const result = await pool.query<{ id: number; claims: number }>(CLAIM, [BATCH, 600, owner]);
        for (const row of result.rows) {
          assert.equal(claimedBy.get(row.id), undefined, `row ${row.id} claimed by ${claimedBy.get(row.id)} and ${owner}`);
          assert.equal(row.claims, 1);
          claimedBy.set(row.id, owner);
        }
        return result.rows.length;
      });
    const [first, second] = await Promise.all([claimer('a'), claimer('b')]);
    assert.equal(first + second, ROWS);
    assert.ok(first > 0 && second > 0, 'both claimers took rows');
    assert.equal(claimedBy.size, ROWS);
    const stored = await pool.query<{ owner: string; n: number }>('SELECT owner, count(*)::int AS n FROM jobs WHERE claims = 1 GROUP BY owner ORDER BY owner');
    assert.deepEqual(stored.rows.map((row) => [row.owner, row.n]), [
      ['a', first],
      ['b', second],
    ]);
    assert.deepEqual((await pool.query(CLAIM, [BATCH, 600, 'c'])).rows, [], 'no row is due while its lease runs');
  });

  it('when one transaction holds due rows, then another takes the next ones in order without waiting, and the held ones once released', async () => {
    const pool = await jobs(10);
    const due = skipLocked({ select: 'id', from: 'jobs', where: 'due_at <= now()', orderBy: 'due_at', limit: '$1' });
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    let holding: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (holding = resolve));
    const first = withTransaction(pool, async (tx) => {
      const rows = (await tx.query<{ id: number }>(due, [4])).rows.map((row) => row.id);
      holding();
      await released;
      return rows;
    });
    await held;
    const second = await withTransaction(pool, async (tx) => (await tx.query<{ id: number }>(due, [4])).rows.map((row) => row.id));
    release();
    assert.deepEqual(await first, [1, 2, 3, 4]);
    assert.deepEqual(second, [5, 6, 7, 8]);
    assert.deepEqual((await pool.query<{ id: number }>(due, [10])).rows.map((row) => row.id), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('when two purgers delete side by side, then each row goes once and the batches add up to every row', async () => {
    const pool = await jobs(ROWS);
    const purge = purgeBatch({ table: 'jobs', key: 'id', where: 'due_at <= now()', orderBy: 'due_at', limit: '$1' });
    const purger = () => inBatches({ size: BATCH }, async () => (await pool.query(purge, [BATCH])).rowCount ?? 0);
    const [first, second] = await Promise.all([purger(), purger()]);
    assert.equal(first + second, ROWS);
    assert.deepEqual((await pool.query('SELECT count(*)::int AS n FROM jobs')).rows, [{ n: 0 }]);
  });
});
