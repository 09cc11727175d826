import { strict as assert } from 'node:assert';
import { inBatches, leaseClaim, purgeBatch, skipLocked } from '../../src/index.js';

/** The statement on one line, spaces collapsed: what the database is sent, as read. */
const oneLine = (sql: string) => sql.replace(/\s+/g, ' ').trim();

describe('claims of due rows (SQL)', () => {
  it('when due rows are read in a transaction, then they are locked in order, at most the limit, skipping those another holds', () => {
    assert.equal(
      skipLocked({ select: 'id, status', from: 'sessions', where: "status = 'CREATED' AND expires_at <= $1", orderBy: 'expires_at', limit: '$2' }),
      "SELECT id, status FROM sessions WHERE status = 'CREATED' AND expires_at <= $1 ORDER BY expires_at LIMIT $2 FOR UPDATE SKIP LOCKED",
    );
  });

  it('when the due rows come from a join, then only the named table is locked; with no order or limit, none is written', () => {
    assert.equal(
      skipLocked({ select: 'l.id', from: 'checkout_links l JOIN sessions s ON s.id = l.session_id', where: 'l.expires_at <= $1', lockOf: 'l' }),
      'SELECT l.id FROM checkout_links l JOIN sessions s ON s.id = l.session_id WHERE l.expires_at <= $1 FOR UPDATE OF l SKIP LOCKED',
    );
  });

  it('when rows are claimed with a lease, then one statement locks the due keys and writes the lease on those rows alone', () => {
    const sql = leaseClaim({
      table: 'orders',
      key: 'attempt_id',
      where: 'next_check_at <= now()',
      orderBy: 'next_check_at',
      limit: '$1',
      set: 'next_check_at = now() + make_interval(secs => $2), checks = checks + 1',
      returning: 'attempt_id, checks',
    });
    assert.equal(
      oneLine(sql),
      'WITH due AS (SELECT attempt_id AS due_key FROM orders WHERE next_check_at <= now() ORDER BY next_check_at LIMIT $1 FOR UPDATE SKIP LOCKED) ' +
        'UPDATE orders SET next_check_at = now() + make_interval(secs => $2), checks = checks + 1 FROM due WHERE attempt_id = due.due_key RETURNING attempt_id, checks',
    );
  });

  it('when the table has an alias and the claim is read further, then the key is qualified and the claimed rows are named claimed', () => {
    const sql = leaseClaim({
      table: 'attempts a',
      key: 'id',
      where: "a.status = 'PROCESSING'",
      orderBy: 'a.created_at',
      limit: '$3',
      set: 'checks = a.checks + 1',
      returning: 'a.id, a.session_id',
      then: 'SELECT c.id, s.merchant_id FROM claimed c JOIN sessions s ON s.id = c.session_id',
    });
    assert.equal(
      oneLine(sql),
      "WITH due AS (SELECT a.id AS due_key FROM attempts a WHERE a.status = 'PROCESSING' ORDER BY a.created_at LIMIT $3 FOR UPDATE SKIP LOCKED), " +
        'claimed AS (UPDATE attempts a SET checks = a.checks + 1 FROM due WHERE a.id = due.due_key RETURNING a.id, a.session_id) ' +
        'SELECT c.id, s.merchant_id FROM claimed c JOIN sessions s ON s.id = c.session_id',
    );
  });

  it('when rows are purged, then a batch of keys is locked and deleted; a composite key is compared as a row, and conditions checked again', () => {
    assert.equal(
      purgeBatch({ table: 'mails', key: 'id', where: "status <> 'pending' AND created_at < $1", orderBy: 'created_at', limit: '$2' }),
      "DELETE FROM mails WHERE id IN (SELECT id FROM mails WHERE status <> 'pending' AND created_at < $1 ORDER BY created_at LIMIT $2 FOR UPDATE SKIP LOCKED)",
    );
    assert.equal(
      purgeBatch({ table: 'idempotency_keys', key: 'merchant_id, livemode, key, route', where: 'expires_at <= now()', orderBy: 'expires_at', limit: '$1', recheck: 'expires_at <= now()' }),
      'DELETE FROM idempotency_keys WHERE (merchant_id, livemode, key, route) IN (SELECT merchant_id, livemode, key, route FROM idempotency_keys ' +
        'WHERE expires_at <= now() ORDER BY expires_at LIMIT $1 FOR UPDATE SKIP LOCKED) AND expires_at <= now()',
    );
  });
});

describe('a sweep in batches', () => {
  /** A sweep over `due` rows, `size` a batch: the sizes of the batches it took. */
  async function batchesOf(due: number, loop: { size: number; maxBatches?: number; stopAfter?: number }) {
    const taken: number[] = [];
    let left = due;
    const total = await inBatches({ size: loop.size, ...(loop.maxBatches !== undefined && { maxBatches: loop.maxBatches }), stopping: () => taken.length >= (loop.stopAfter ?? Infinity) }, async () => {
      const batch = Math.min(left, loop.size);
      left -= batch;
      taken.push(batch);
      return batch;
    });
    return { taken, total };
  }

  it('when rows are due, then batches are taken until one comes short, and the total is what they took', async () => {
    assert.deepEqual(await batchesOf(250, { size: 100 }), { taken: [100, 100, 50], total: 250 });
  });

  it('when the last batch is full, then one more (empty) batch tells that nothing is left', async () => {
    assert.deepEqual(await batchesOf(200, { size: 100 }), { taken: [100, 100, 0], total: 200 });
  });

  it('when a run may take only so many batches, or the service is stopping, then it ends there', async () => {
    assert.deepEqual(await batchesOf(1000, { size: 100, maxBatches: 3 }), { taken: [100, 100, 100], total: 300 });
    assert.deepEqual(await batchesOf(1000, { size: 100, stopAfter: 2 }), { taken: [100, 100], total: 200 });
    assert.deepEqual(await batchesOf(1000, { size: 100, stopAfter: 0 }), { taken: [], total: 0 });
  });
});
