/**
 * session.stats (D21, the dashboard's Home page) against a real PostgreSQL:
 * each attempt's outcome is counted once, in the statement that records it,
 * on the Africa/Tunis day the attempt was made; the stats add up every day of
 * the range and the declines by code; the read is a range of attempt_days'
 * key whatever the number of attempts; and bad ranges are the daily report's
 * validation problems.
 */
import assert from 'node:assert/strict';
import { newId, SessionStats, validatorOf, type ApiContext, type Envelope } from '@gateway/contracts';
import { createPool, type Pool } from '@gateway/db';
import { AppError } from '@gateway/problem';
import { createTestDatabase, explainQuery, recordingPool, type RecordedQuery, type TestDatabase } from '@gateway/testkit';
import { AttemptRepository, type AttemptOutcome, type AttemptResolution } from '../../src/db/attempt.repository.js';
import { SessionStatsRepository } from '../../src/db/session-stats.repository.js';
import { readSessionStats } from '../../src/domain/session-stats.js';

const MERCHANT = 'mer_sessionstats00000000001';
const NEIGHBOUR = 'mer_sessionstats00000000002';

describe('session stats (session.stats)', function () {
  this.timeout(120_000);
  let db: TestDatabase;
  let pool: Pool;
  let attempts: AttemptRepository;
  let statsRepository: SessionStatsRepository;
  const context = (merchantId = MERCHANT, livemode = false) => ({ merchant_id: merchantId, livemode, request_id: 'req_stats' }) as ApiContext;

  before(async () => {
    db = await createTestDatabase(['session']);
    pool = createPool({ url: db.urlFor('session'), schema: 'session', max: 4 });
    attempts = new AttemptRepository(pool);
    statsRepository = new SessionStatsRepository(pool);
  });
  after(async () => {
    await pool?.end();
    await db?.drop();
  });

  let made = 0;
  /** A session of `merchantId` with one attempt PROCESSING, started at `at`. */
  async function processing(merchantId: string, at: Date, livemode = false): Promise<{ sessionId: string; attemptId: string }> {
    made += 1;
    const sessionId = newId('ps');
    const attemptId = newId('pa');
    await db.query(
      `INSERT INTO session.sessions (id, merchant_id, livemode, merchant_reference, order_number, amount, original_amount, original_currency, rate,
         buyer_first_name, buyer_last_name, buyer_email, max_attempts, status, expires_at, created_at, checkout_link_id, checkout_token, checkout_expires_at, attempts_count)
       VALUES ($1, $2, $3, $4, $4, 10, 10, 'TND', 1, 'Amina', 'Ben Salah', 'amina@example.tn', 3, 'PROCESSING', $5::timestamptz + interval '1 day', $5, 'cl_stats', '', $5, 1)`,
      [sessionId, merchantId, livemode, `STATS-${made}`, at],
    );
    await db.query(`INSERT INTO session.attempts (id, session_id, attempt_number, status, created_at) VALUES ($1, $2, 1, 'PROCESSING', $3)`, [attemptId, sessionId, at]);
    return { sessionId, attemptId };
  }

  /** Records the attempt's outcome as a payment's answer or event does: approved, or declined with `code`. */
  async function resolve(attempt: { sessionId: string; attemptId: string }, at: Date, code?: string): Promise<boolean> {
    const failed = code !== undefined;
    const outcome: AttemptOutcome = {
      attemptId: attempt.attemptId,
      status: failed ? 'FAILED' : 'SUCCEEDED',
      cardBrand: 'visa',
      cardLastFour: failed ? '0002' : '4242',
      cardCountry: '',
      failureCode: code ?? '',
      failureMessage: failed ? 'Declined.' : '',
      feeAmount: failed ? null : '1.000',
      netAmount: failed ? null : '9.000',
      at,
    };
    const resolution: AttemptResolution = {
      status: failed ? 'PENDING' : 'SUCCEEDED',
      completedAt: failed ? null : at,
      authorizedAt: null,
      holdExpiresAt: null,
      lastFailureCode: code ?? '',
      lastFailureMessage: failed ? 'Declined.' : '',
      attemptsCount: 1,
    };
    const event: Envelope = { id: newId('evt'), type: failed ? 'session.failed' : 'session.succeeded', version: 1, occurred_at: at.toISOString(), correlation_id: 'req_stats', data: {} };
    return (await attempts.resolve(outcome, attempt.sessionId, resolution, event)).resolved;
  }

  it('when attempts are approved and declined either side of midnight in Tunis, then each counts once on its Tunis day, declines by code, most first', async () => {
    // 23:30 UTC on the 9th is 00:30 on the 10th in Tunis (UTC+1); 22:30 UTC is still the 9th.
    const lateOn9th = new Date('2026-03-09T22:30:00Z');
    const earlyOn10th = new Date('2026-03-09T23:30:00Z');
    const on12th = new Date('2026-03-12T11:00:00Z');
    const attempts = [
      [await processing(MERCHANT, lateOn9th), undefined],
      [await processing(MERCHANT, earlyOn10th), undefined],
      [await processing(MERCHANT, earlyOn10th), 'card_declined'],
      [await processing(MERCHANT, on12th), 'insufficient_funds'],
      [await processing(MERCHANT, on12th), 'card_declined'],
      [await processing(MERCHANT, on12th), 'card_declined'],
      [await processing(MERCHANT, on12th), 'expired_card'],
    ] as const;
    // Resolved an hour later: the attempt still counts on the day it was made.
    for (const [attempt, code] of attempts) assert.equal(await resolve(attempt, new Date(on12th.getTime() + 3_600_000), code), true);
    // The same outcome again (its event after its answer) changes nothing.
    for (const [attempt, code] of attempts) assert.equal(await resolve(attempt, on12th, code), false);
    // Another merchant's and the live mode's attempts are theirs.
    await resolve(await processing(NEIGHBOUR, on12th), on12th, 'card_declined');
    await resolve(await processing(MERCHANT, on12th, true), on12th, 'card_declined');

    const stats = await readSessionStats({ stats: statsRepository }, context(), { from: '2026-03-09', to: '2026-03-12' });
    const valid = validatorOf(SessionStats);
    assert.ok(valid(stats), JSON.stringify(valid.errors));
    assert.deepEqual(stats, {
      data: [
        { date: '2026-03-09', attempts_succeeded: 1, attempts_failed: 0 },
        { date: '2026-03-10', attempts_succeeded: 1, attempts_failed: 1 },
        { date: '2026-03-11', attempts_succeeded: 0, attempts_failed: 0 },
        { date: '2026-03-12', attempts_succeeded: 0, attempts_failed: 4 },
      ],
      failures: [
        { failure_code: 'card_declined', count: 3 },
        { failure_code: 'expired_card', count: 1 },
        { failure_code: 'insufficient_funds', count: 1 },
      ],
      livemode: false,
    });
    const live = await readSessionStats({ stats: statsRepository }, context(MERCHANT, true), { from: '2026-03-12', to: '2026-03-12' });
    assert.deepEqual(live.failures, [{ failure_code: 'card_declined', count: 1 }]);
    const one = await readSessionStats({ stats: statsRepository }, context(), { from: '2026-03-10', to: '2026-03-10' });
    assert.deepEqual(one.failures, [{ failure_code: 'card_declined', count: 1 }]);
  });

  it('when many attempts of one merchant resolve at once, then none is lost to another (the counts are spread over slots)', async () => {
    const at = new Date('2026-04-01T10:00:00Z');
    const open = await Promise.all(Array.from({ length: 40 }, () => processing(MERCHANT, at)));
    const resolved = await Promise.all(open.map((attempt, i) => resolve(attempt, at, i % 4 === 0 ? 'card_declined' : undefined)));
    assert.ok(resolved.every(Boolean));
    const stats = await readSessionStats({ stats: statsRepository }, context(), { from: '2026-04-01', to: '2026-04-01' });
    assert.deepEqual(stats.data, [{ date: '2026-04-01', attempts_succeeded: 30, attempts_failed: 10 }]);
    const [slots] = await db.query<{ n: number }>(`SELECT count(DISTINCT slot)::int AS n FROM session.attempt_days WHERE merchant_id = $1 AND day = '2026-04-01'`, [MERCHANT]);
    assert.ok((slots?.n ?? 0) > 1, 'spread over more than one row');
  });

  it('when the counts of a year of other days are there, then thirty days are read from attempt_days by its key, never a sequential scan', async () => {
    await db.query(
      `INSERT INTO session.attempt_days (merchant_id, livemode, day, status, failure_code, slot, attempts)
       SELECT m, false, d::date, s, CASE WHEN s = 'FAILED' THEN 'card_declined' ELSE '' END, slot, 5
       FROM unnest(ARRAY[$1, $2]) m, generate_series('2025-01-01'::date, '2025-12-31'::date, interval '1 day') d, unnest(ARRAY['SUCCEEDED', 'FAILED']) s, generate_series(0, 7) slot`,
      [MERCHANT, NEIGHBOUR],
    );
    await db.query('ANALYZE session.attempt_days');
    const recorded: RecordedQuery[] = [];
    const stats = await readSessionStats({ stats: new SessionStatsRepository(recordingPool(pool, recorded)) }, context(), { from: '2025-06-01', to: '2025-06-30' });
    assert.equal(stats.data.length, 30);
    assert.deepEqual(stats.data[0], { date: '2025-06-01', attempts_succeeded: 40, attempts_failed: 40 });
    assert.deepEqual(stats.failures, [{ failure_code: 'card_declined', count: 30 * 40 }]);
    assert.equal(recorded.length, 1);
    const plan = await explainQuery(pool, recorded[0] as RecordedQuery);
    assert.deepEqual(plan.seqScans, [], plan.text);
    assert.ok(plan.indexes.includes('attempt_days_pkey'), plan.text);
    assert.ok(plan.rowsRemovedByFilter === 0, plan.text);
  });

  for (const [name, query, errors] of [
    ['a reversed range', { from: '2026-03-12', to: '2026-03-09' }, [['to', 'to must not be before from.']]],
    ['a date that is not one', { from: '2026-02-30', to: '2026-03-09' }, [['from', 'from must be a valid date.']]],
    ['more than 366 days', { from: '2025-01-01', to: '2026-01-02' }, [['to', 'A report covers at most 366 days.']]],
  ] as const) {
    it(`when the stats are asked for ${name}, then the answer is the daily report's validation problem`, async () => {
      const refused = await readSessionStats({ stats: statsRepository }, context(), query).then(
        () => undefined,
        (err: unknown) => err,
      );
      assert.ok(refused instanceof AppError && refused.code === 'validation-error', String(refused));
      assert.deepEqual(
        refused.errors.map((e) => [e.field, e.message]),
        errors,
      );
    });
  }

  it('when from is missing or a parameter is unknown, then each names its field', async () => {
    const refused = await readSessionStats({ stats: statsRepository }, context(), { to: '2026-03-09', days: '30' }).catch((err: unknown) => err);
    assert.ok(refused instanceof AppError && refused.code === 'validation-error', String(refused));
    assert.deepEqual(refused.errors.map((e) => e.field).sort(), ['days', 'from']);
  });
});
