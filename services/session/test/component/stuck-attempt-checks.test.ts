/**
 * How often an attempt left PROCESSING is asked about: the claim's query puts
 * each attempt's next check at the backoff step its own count of checks names
 * (5 s, doubled, up to the longest wait), against a real PostgreSQL.
 */
import assert from 'node:assert/strict';
import { backoffSteps } from '@gateway/backoff';
import { createPool, type Pool } from '@gateway/db';
import { createTestDatabase, type TestDatabase } from '@gateway/testkit';
import { AttemptRepository } from '../../src/db/attempt.repository.js';
import { seedSessions } from '../support/seed-sessions.js';

describe('stuck attempt checks', function () {
  this.timeout(120_000);
  let db: TestDatabase;
  let pool: Pool;

  before(async () => {
    db = await createTestDatabase(['session']);
    pool = createPool({ url: db.urlFor('session'), schema: 'session', max: 2 });
  });
  after(async () => {
    await pool?.end();
    await db?.drop();
  });

  it('when an attempt stays PROCESSING, then each claim puts its next check one backoff step further, the last step repeating', async () => {
    const now = new Date('2026-11-25T10:00:00Z');
    await seedSessions(pool, { merchantId: 'mer_stuckchecks0000000000001', count: 1, days: 1, now, referencePrefix: 'stuck-' });
    const [session] = await db.query<{ id: string }>('SELECT id FROM session.sessions WHERE merchant_id = $1', ['mer_stuckchecks0000000000001']);
    assert.ok(session);
    await db.query(`INSERT INTO session.attempts (id, session_id, attempt_number, status, created_at) VALUES ('att_stuck1', $1, 1, 'PROCESSING', $2)`, [session.id, new Date(now.getTime() - 3_600_000)]);
    const attempts = new AttemptRepository(pool);
    const waits = backoffSteps({ first: 5, max: 60 });
    assert.deepEqual(waits, [5, 10, 20, 40, 60]);
    const seen: number[] = [];
    let at = now;
    for (let claim = 0; claim < 7; claim += 1) {
      const claimed = await attempts.claimStuck(at, now, 10, waits);
      assert.deepEqual(claimed.map((a) => a.attempt_id), ['att_stuck1']);
      // Claimed again only once its next check has come.
      assert.deepEqual(await attempts.claimStuck(at, now, 10, waits), []);
      const [row] = await db.query<{ next_check_at: Date; checks: number }>("SELECT next_check_at, checks FROM session.attempts WHERE id = 'att_stuck1'");
      assert.equal(row?.checks, claim + 1);
      assert.ok(row);
      seen.push((row.next_check_at.getTime() - at.getTime()) / 1000);
      at = row.next_check_at;
    }
    assert.deepEqual(seen, [5, 10, 20, 40, 60, 60, 60]);
  });
});
