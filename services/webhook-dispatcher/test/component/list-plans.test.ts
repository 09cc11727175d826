/**
 * The webhook log on an account with 100,000 delivery attempts (the
 * dashboard's Webhooks page, D14): newest first, all or one status ("failed
 * only"), with and without a cursor, each answered from an index in list
 * order. The list use case runs its own statements against a real PostgreSQL;
 * each is then explained (ANALYZE): no sequential scan, no sort, no more than
 * a page's worth of rows read only to be filtered out.
 */
import assert from 'node:assert/strict';
import type { ApiContext } from '@gateway/contracts';
import { createPool, type Pool } from '@gateway/db';
import { createTestDatabase, explainQuery, recordingPool, type RecordedQuery, type TestDatabase } from '@gateway/testkit';
import { DeliveryHistoryRepository } from '../../src/db/delivery-history.repository.js';
import type { HistoryDeps } from '../../src/domain/deps.js';
import { listDeliveries } from '../../src/domain/list-deliveries.js';

const MERCHANT = 'mer_deliveryplans00000000001';
const NEIGHBOUR = 'mer_deliveryplans00000000002';

/**
 * `count` events of the account, one attempt each, newest last in seq order:
 * 94% succeeded, 5% failed, 1% pending. Straight into the tables, in two statements.
 */
async function seedDeliveries(pool: Pool, merchantId: string, livemode: boolean, count: number): Promise<void> {
  const endpoint = `we_${merchantId.slice(-20)}${livemode ? 'l' : 't'}`;
  await pool.query(`INSERT INTO endpoints (id, merchant_id, livemode, url, secret, secret_ciphertext) VALUES ($1, $2, $3, 'https://shop.example/hooks', '', 'seeded')`, [endpoint, merchantId, livemode]);
  await pool.query(
    `INSERT INTO events (id, type, merchant_id, livemode, session_id, body, created_at)
     SELECT 'evt_' || md5($1 || $2::boolean::text || g), 'session.succeeded', $1, $2::boolean, 'ps_' || md5('s' || $1 || g), '{"seeded":true}', now() - make_interval(secs => ($3 - g) * 60)
     FROM generate_series(1, $3::integer) g`,
    [merchantId, livemode, count],
  );
  await pool.query(
    `INSERT INTO deliveries (id, endpoint_id, event_id, event_type, merchant_id, livemode, session_id, url, attempt_number, status, http_status_code, created_at, completed_at)
     SELECT 'whd_' || md5($1 || $2::boolean::text || g), $4, 'evt_' || md5($1 || $2::boolean::text || g), 'session.succeeded', $1, $2::boolean, 'ps_' || md5('s' || $1 || g),
       'https://shop.example/hooks', 1, st, CASE st WHEN 'SUCCEEDED' THEN 200 WHEN 'FAILED' THEN 500 END,
       now() - make_interval(secs => ($3 - g) * 60), now() - make_interval(secs => ($3 - g) * 60)
     FROM (SELECT g, CASE WHEN g % 100 = 0 THEN 'PENDING' WHEN g % 20 = 7 THEN 'FAILED' ELSE 'SUCCEEDED' END AS st FROM generate_series(1, $3::integer) g) s
     ORDER BY g`,
    [merchantId, livemode, count, endpoint],
  );
}

describe('webhook log plans on 100,000 attempts', function () {
  this.timeout(180_000);
  let db: TestDatabase;
  let pool: Pool;
  const recorded: RecordedQuery[] = [];
  let deps: HistoryDeps;
  const context = { merchant_id: MERCHANT, livemode: false, request_id: 'req_deliveryplans' } as ApiContext;

  before(async () => {
    db = await createTestDatabase(['webhook-dispatcher']);
    pool = createPool({ url: db.urlFor('webhook-dispatcher'), schema: 'webhooks', max: 2 });
    await seedDeliveries(pool, NEIGHBOUR, false, 20_000);
    await seedDeliveries(pool, MERCHANT, false, 100_000);
    await seedDeliveries(pool, NEIGHBOUR, true, 20_000);
    await pool.query('ANALYZE deliveries');
    deps = { history: new DeliveryHistoryRepository(recordingPool(pool, recorded)), getSession: () => Promise.reject(new Error('unused')) };
  });
  after(async () => {
    await pool?.end();
    await db?.drop();
  });

  /** The ids of the account's attempts in list order with `status`, at `position` (0 = newest). */
  async function deliveryAt(position: number, status?: string): Promise<string> {
    const result = await pool.query<{ id: string }>(
      `SELECT id FROM deliveries WHERE merchant_id = $1 AND NOT livemode AND ($2::text IS NULL OR status = $2) ORDER BY seq DESC OFFSET $3 LIMIT 1`,
      [MERCHANT, status ?? null, position],
    );
    return result.rows[0]?.id as string;
  }

  it('when the log is listed, filtered by status or paged deep by cursor, then an index answers each statement in list order', async () => {
    const queries: Record<string, string>[] = [
      {},
      { status: 'FAILED' },
      { status: 'PENDING' },
      { status: 'SUCCEEDED' },
      { starting_after: await deliveryAt(10_000) },
      { ending_before: await deliveryAt(10_000) },
      { status: 'FAILED', starting_after: await deliveryAt(2_000, 'FAILED') },
      { status: 'FAILED', ending_before: await deliveryAt(2_000, 'FAILED') },
    ];
    for (const query of queries) {
      recorded.length = 0;
      const list = await listDeliveries(deps, context, { limit: '20', ...query });
      assert.equal(list.data.length, 20, JSON.stringify(query));
      if (query['status']) assert.ok(list.data.every((d) => d.status === query['status']));
      const statements = recorded.splice(0);
      assert.ok(statements.length >= 1);
      for (const statement of statements) {
        const plan = await explainQuery(pool, statement);
        const what = `${JSON.stringify(query)}\n${plan.text}`;
        assert.deepEqual(plan.seqScans, [], what);
        assert.equal(plan.rowsSorted, 0, what);
        assert.ok(plan.rowsRemovedByFilter <= 50, `${plan.rowsRemovedByFilter} rows read and dropped: ${what}`);
        assert.ok(plan.indexes.length > 0, what);
      }
    }
  });
});
