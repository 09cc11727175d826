/**
 * The session list on a merchant with 100,000 sessions (the dashboard's
 * Payments page, D14): every filter the page uses, with and without a cursor,
 * is answered from an index in list order. The list use case runs its own
 * statements against a real PostgreSQL; each is then explained (ANALYZE): no
 * sequential scan, no sort, and no more than a page's worth of rows read only
 * to be filtered out, however deep the cursor or rare the status.
 */
import assert from 'node:assert/strict';
import { SessionList, validatorOf, type ApiContext } from '@gateway/contracts';
import { createPool, type Pool } from '@gateway/db';
import { createTestDatabase, explainQuery, recordingPool, type RecordedQuery, type TestDatabase } from '@gateway/testkit';
import { SessionRepository } from '../../src/db/session.repository.js';
import type { SessionDeps } from '../../src/domain/deps.js';
import { listSessions } from '../../src/domain/list-sessions.js';
import { seedSessions, sessionAt, type SeededSessions } from '../support/seed-sessions.js';

const MERCHANT = 'mer_listplans000000000000001';
const NEIGHBOUR = 'mer_listplans000000000000002';

describe('session list plans on 100,000 sessions', function () {
  this.timeout(180_000);
  let db: TestDatabase;
  let pool: Pool;
  let seeded: SeededSessions;
  const recorded: RecordedQuery[] = [];
  let deps: SessionDeps;
  const context = { merchant_id: MERCHANT, livemode: false, request_id: 'req_listplans' } as ApiContext;

  before(async () => {
    db = await createTestDatabase(['session']);
    pool = createPool({ url: db.urlFor('session'), schema: 'session', max: 2 });
    const now = new Date();
    // Other accounts share the table: another merchant, and the merchant's live mode.
    await seedSessions(pool, { merchantId: NEIGHBOUR, count: 20_000, now, referencePrefix: 'other-' });
    await seedSessions(pool, { merchantId: MERCHANT, livemode: true, count: 5_000, now, referencePrefix: 'live-' });
    seeded = await seedSessions(pool, { merchantId: MERCHANT, count: 100_000, now });
    deps = { sessions: new SessionRepository(recordingPool(pool, recorded)), clock: () => new Date() } as unknown as SessionDeps;
  });
  after(async () => {
    await pool?.end();
    await db?.drop();
  });

  /** Lists with `query` as the page would, then explains every statement the list ran. */
  async function plansOf(query: Record<string, string>): Promise<{ ids: string[]; plans: Awaited<ReturnType<typeof explainQuery>>[] }> {
    recorded.length = 0;
    const list = await listSessions(deps, context, query);
    // The seeded sessions are ones the API can answer.
    const valid = validatorOf(SessionList);
    assert.ok(valid(list), JSON.stringify(valid.errors));
    const plans = [];
    for (const statement of recorded.splice(0)) plans.push(await explainQuery(pool, statement));
    return { ids: list.data.map((s) => s.id), plans };
  }

  const week = (from: number) => ({ 'created[gte]': seeded.createdAround(from + 2_000).toISOString(), 'created[lte]': seeded.createdAround(from).toISOString() });

  it('when the table is seeded, then statuses are spread as a shop sees them', () => {
    assert.equal(Object.values(seeded.statuses).reduce((a, b) => a + b, 0), 100_000);
    for (const status of ['SUCCEEDED', 'EXPIRED', 'FAILED', 'CANCELED', 'CREATED', 'PENDING']) assert.ok((seeded.statuses[status] ?? 0) > 0, status);
    assert.ok((seeded.statuses['SUCCEEDED'] ?? 0) > 60_000);
  });

  // A status so rare that its few rows are fetched and sorted (under a thousand), or a unique reference (at most one row), needs no list order from the index.
  for (const [name, query, expected, maxSorted] of [
    ['the first page', () => ({}), 20, 0],
    ['a common status', () => ({ status: 'SUCCEEDED' }), 20, 0],
    ['a rare status', () => ({ status: 'CREATED' }), 20, 1_000],
    ['a date range', () => week(30_000), 20, 0],
    ['a status within a date range', () => ({ status: 'FAILED', ...week(60_000) }), 20, 0],
    ['a merchant_reference', () => ({ merchant_reference: seeded.reference(54_321) }), 1, 1],
    ['an unknown merchant_reference', () => ({ merchant_reference: 'no-such-reference' }), 0, 1],
  ] as const) {
    it(`when the list is asked for ${name}, then an index answers it`, async () => {
      const { ids, plans } = await plansOf(query());
      assert.equal(ids.length, expected);
      for (const plan of plans) {
        assert.deepEqual(plan.seqScans, [], plan.text);
        assert.ok(plan.rowsSorted <= maxSorted, `${plan.rowsSorted} rows sorted\n${plan.text}`);
        assert.ok(plan.rowsRemovedByFilter <= 50, `${plan.rowsRemovedByFilter} rows read and dropped\n${plan.text}`);
        assert.ok(plan.indexes.length > 0, plan.text);
      }
    });
  }

  it('when a page 500 pages deep is asked by cursor, with or without filters, then the cursor is an index bound, not a walk', async () => {
    const deep = await sessionAt(pool, MERCHANT, false, 500 * 20 - 1);
    const failedDeep = (await pool.query<{ id: string }>(
      `SELECT id FROM sessions WHERE merchant_id = $1 AND NOT livemode AND status = 'FAILED' ORDER BY created_at DESC, id DESC OFFSET 9999 LIMIT 1`,
      [MERCHANT],
    )).rows[0]?.id as string;
    const inRange = await sessionAt(pool, MERCHANT, false, 40_500);
    const queries: Record<string, string>[] = [
      { starting_after: deep },
      { ending_before: deep },
      { status: 'FAILED', starting_after: failedDeep },
      { ...week(40_000), starting_after: inRange },
    ];
    for (const query of queries) {
      const { ids, plans } = await plansOf(query);
      assert.equal(ids.length, 20, JSON.stringify(query));
      assert.ok(!ids.includes(query['starting_after'] ?? query['ending_before'] ?? ''), 'the cursor is not on its own page');
      for (const plan of plans) {
        assert.deepEqual(plan.seqScans, [], plan.text);
        assert.equal(plan.rowsSorted, 0, plan.text);
        assert.ok(plan.rowsRemovedByFilter <= 50, `${JSON.stringify(query)}: ${plan.rowsRemovedByFilter} rows read and dropped\n${plan.text}`);
      }
    }
  });
});
