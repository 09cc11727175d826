/**
 * Group commit of new sessions (issue 18) against a real PostgreSQL: creates
 * asked for together share one statement, and each is still inserted, or not,
 * on its own, with its link and its outbox row; a create the database refuses
 * fails alone.
 */
import assert from 'node:assert/strict';
import { createPool, type Pool } from '@gateway/db';
import { createTestDatabase, type TestDatabase } from '@gateway/testkit';
import { SessionRepository } from '../../src/db/session.repository.js';
import { NOT_HELD, type SessionRow } from '../../src/domain/session.js';

const MERCHANT = 'mer_batches00000000000000001';

let sequence = 0;
function newRow(overrides: Partial<SessionRow> = {}): SessionRow {
  sequence += 1;
  const now = new Date();
  return {
    id: `ps_batch${String(sequence).padStart(8, '0')}`,
    merchant_id: MERCHANT,
    livemode: false,
    merchant_reference: `batch-${sequence}`,
    order_number: `BAT-${String(sequence).padStart(6, '0')}`,
    order_id: '',
    amount: '125.500',
    original_amount: '125.500',
    original_currency: 'TND',
    rate: '1.000000',
    description: 'Two books',
    items: [{ name: 'Book', quantity: 2, unit_price: '62.750' }],
    metadata: { cart: String(sequence) },
    buyer_first_name: 'Amina',
    buyer_last_name: 'Ben Salah',
    buyer_email: 'amina@example.tn',
    buyer_phone: '',
    return_url: '',
    cancel_url: '',
    webhook_url: '',
    max_attempts: 5,
    status: 'CREATED',
    expires_at: new Date(now.getTime() + 86_400_000),
    completed_at: null,
    created_at: now,
    checkout_link_id: `cl_batch${String(sequence).padStart(8, '0')}`,
    checkout_token: `token-${sequence}`,
    checkout_expires_at: new Date(Math.floor((now.getTime() + 3_600_000) / 1000) * 1000),
    amount_refunded: '0.000',
    merchant_name: 'Batch Shop',
    attempts_count: 0,
    last_failure_code: '',
    last_failure_message: '',
    locale: 'auto',
    capture_method: 'automatic',
    payment_link: null,
    customer_id: null,
    save_card: 'off',
    payment_method_id: null,
    paid_with: '',
    ...NOT_HELD,
    ...overrides,
  };
}


describe('new sessions inserted together', function () {
  this.timeout(120_000);
  let db: TestDatabase;
  let pool: Pool;
  let sessions: SessionRepository;

  before(async () => {
    db = await createTestDatabase(['session']);
    pool = createPool({ url: db.urlFor('session'), schema: 'session', max: 4 });
    sessions = new SessionRepository(pool);
  });
  after(async () => {
    await pool?.end();
    await db?.drop();
  });

  async function stored(ids: readonly string[]): Promise<{ sessions: number; links: number }> {
    const [row] = await db.query<{ sessions: number; links: number }>(
      `SELECT (SELECT count(*)::int FROM session.sessions WHERE id = ANY($1)) AS sessions,
              (SELECT count(*)::int FROM session.checkout_links WHERE session_id = ANY($1)) AS links`,
      [ids],
    );
    return row ?? { sessions: -1, links: -1 };
  }

  it('when 200 creates come at once, then each is stored as it was given, with its own link, and no event is written (nothing consumes one)', async () => {
    const rows = Array.from({ length: 200 }, () => newRow());
    const inserted = await Promise.all(rows.map((row) => sessions.insertNew(row)));
    assert.deepEqual(new Set(inserted), new Set([true]));
    assert.deepEqual(await stored(rows.map((r) => r.id)), { sessions: 200, links: 200 });
    const [sample] = rows.slice(137, 138);
    const [back] = await db.query<Record<string, unknown>>(
      `SELECT s.merchant_reference, s.amount::text, s.metadata::text, s.items::text, s.expires_at, l.id AS link, l.expires_at AS link_expires
       FROM session.sessions s JOIN session.checkout_links l ON l.session_id = s.id WHERE s.id = $1`,
      [sample?.id],
    );
    assert.equal(back?.['merchant_reference'], sample?.merchant_reference);
    assert.equal(back?.['amount'], '125.500');
    assert.deepEqual(JSON.parse(String(back?.['metadata'])), sample?.metadata);
    assert.deepEqual(JSON.parse(String(back?.['items'])), sample?.items);
    assert.equal((back?.['expires_at'] as Date).getTime(), sample?.expires_at.getTime());
    assert.equal(back?.['link'], sample?.checkout_link_id);
    assert.equal((back?.['link_expires'] as Date).getTime(), sample?.checkout_expires_at.getTime());
    assert.deepEqual(await db.query('SELECT message_id FROM session.outbox'), []);
  });

  it('when creates of one merchant_reference come together, then one is inserted with one link, the others answered false', async () => {
    const rows = Array.from({ length: 20 }, () => newRow({ merchant_reference: 'same-reference' }));
    const inserted = await Promise.all(rows.map((row) => sessions.insertNew(row)));
    assert.equal(inserted.filter(Boolean).length, 1);
    assert.deepEqual(await stored(rows.map((r) => r.id)), { sessions: 1, links: 1 });
  });

  it('when the database refuses one create of a batch, then that one fails and the others are stored', async () => {
    const rows = Array.from({ length: 10 }, () => newRow());
    // amount > 0 is a constraint of the table: this row passes no validation, as none would reach here.
    const refused = newRow({ amount: '0.000' });
    const results = await Promise.allSettled([...rows, refused].map((row) => sessions.insertNew(row)));
    assert.deepEqual(
      results.slice(0, 10).map((r) => r.status === 'fulfilled' && r.value),
      Array(10).fill(true),
    );
    assert.equal(results[10]?.status, 'rejected');
    assert.deepEqual(await stored(rows.map((r) => r.id)), { sessions: 10, links: 10 });
    assert.deepEqual(await stored([refused.id]), { sessions: 0, links: 0 });
  });

  it('when a text field holds a lone UTF-16 surrogate, then the create is stored with U+FFFD in its place (as before group commit), and its batch with it', async () => {
    const rows = Array.from({ length: 5 }, () => newRow());
    const odd = newRow({ buyer_first_name: 'Am\ud800ina', description: 'tail \udc00', merchant_reference: 'lone-\udbff' });
    const results = await Promise.allSettled([...rows, odd].map((row) => sessions.insertNew(row)));
    assert.deepEqual(
      results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message)),
      Array(6).fill(true),
    );
    const [back] = await db.query<{ buyer_first_name: string; description: string; merchant_reference: string }>(
      'SELECT buyer_first_name, description, merchant_reference FROM session.sessions WHERE id = $1',
      [odd.id],
    );
    assert.deepEqual(back, { buyer_first_name: 'Am\ufffdina', description: 'tail \ufffd', merchant_reference: 'lone-\ufffd' });
    assert.deepEqual(await stored([...rows, odd].map((r) => r.id)), { sessions: 6, links: 6 });
  });

  it('when two batches carry the same two merchant references in opposite orders (a merchant retrying both at once), then neither deadlocks: each reference is inserted once and every other create of both batches is stored', async () => {
    // 256 creates in one pass: two statements of 128 at once, on two connections.
    const first = Array.from({ length: 128 }, () => newRow());
    const second = Array.from({ length: 128 }, () => newRow());
    const [a, b] = ['crossed-a', 'crossed-b'];
    first[0] = newRow({ merchant_reference: a });
    first[127] = newRow({ merchant_reference: b });
    second[0] = newRow({ merchant_reference: b });
    second[127] = newRow({ merchant_reference: a });
    const all = [...first, ...second];
    const results = await Promise.allSettled(all.map((row) => sessions.insertNew(row)));
    const failed = results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason as { code?: string });
    assert.deepEqual(failed.map((err) => err.code), []);
    const crossed = all.map((row, i) => [row.merchant_reference, results[i]]).filter(([ref]) => ref === a || ref === b);
    assert.equal(crossed.filter(([, r]) => (r as PromiseSettledResult<boolean>).status === 'fulfilled' && (r as PromiseFulfilledResult<boolean>).value).length, 2);
    const others = all.filter((row) => row.merchant_reference !== a && row.merchant_reference !== b);
    assert.deepEqual(await stored(others.map((r) => r.id)), { sessions: 252, links: 252 });
  });

  it('when the database cannot be reached, then every create of the batch fails with the connection error', async () => {
    // Port 1 on loopback: refused at once, no SQLSTATE.
    const unreachable = createPool({ url: 'postgres://nobody@127.0.0.1:1/none', schema: 'session', max: 2 });
    try {
      const away = new SessionRepository(unreachable);
      const rows = Array.from({ length: 5 }, () => newRow());
      const results = await Promise.allSettled(rows.map((row) => away.insertNew(row)));
      assert.deepEqual(
        results.map((r) => r.status === 'rejected' && (r.reason as { code?: string }).code),
        Array(5).fill('ECONNREFUSED'),
      );
    } finally {
      await unreachable.end();
    }
  });
});
