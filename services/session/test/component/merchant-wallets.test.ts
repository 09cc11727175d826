/**
 * Whether a merchant's live Flouci is connected, as the session service keeps
 * it from wallet.connected (D26), on a real PostgreSQL: the hosted page's read
 * of a session (findForCheckout) carries it in the same query; the newest
 * announcement wins, and a redelivered or late one changes nothing; another
 * merchant is untouched.
 */
import assert from 'node:assert/strict';
import { newId, type EventData } from '@gateway/contracts';
import { createPool, type Pool } from '@gateway/db';
import { createTestDatabase, type TestDatabase } from '@gateway/testkit';
import { MerchantWalletRepository } from '../../src/db/merchant-wallet.repository.js';
import { SessionRepository } from '../../src/db/session.repository.js';
import { sessionChanges, type SessionChangeDeps, type SessionChanges } from '../../src/messaging/session.events.js';
import { seedSessions, sessionAt } from '../support/seed-sessions.js';

describe("A merchant's live Flouci, as the session service knows it", function () {
  this.timeout(60_000);
  let db: TestDatabase;
  let pool: Pool;
  let sessions: SessionRepository;
  let changes: SessionChanges;

  before(async () => {
    db = await createTestDatabase(['session']);
    pool = createPool({ url: db.urlFor('session'), schema: 'session', max: 2 });
    sessions = new SessionRepository(pool);
    // Only the wallets' change is applied here: it needs only its repository.
    changes = sessionChanges({ wallets: new MerchantWalletRepository(pool) } as unknown as SessionChangeDeps);
  });
  after(async () => {
    await pool?.end();
    await db?.drop();
  });

  /** A live session of a new merchant: the merchant and the session's id. */
  async function liveSession(): Promise<{ merchantId: string; sessionId: string }> {
    const merchantId = newId('mer');
    await seedSessions(pool, { merchantId, livemode: true, count: 1, referencePrefix: `fl-${merchantId.slice(-6)}-` });
    return { merchantId, sessionId: await sessionAt(pool, merchantId, true, 0) };
  }

  /** Applies wallet.connected as the event consumer does, announced at `at`; what it applied. */
  async function heard(data: EventData<'wallet.connected'>, at: Date) {
    const context = { correlationId: newId('cmd'), at };
    const change = changes.wallets.fromEvent(data, context);
    return change && changes.wallets.apply(change, context);
  }

  const flouciLive = async (sessionId: string) => (await sessions.findForCheckout(sessionId, 'cl_none'))?.flouciLive;

  it('when the keys are saved, then the session read for the hosted page says the live Flouci is connected; another merchant still has none', async () => {
    const mine = await liveSession();
    const theirs = await liveSession();
    assert.equal(await flouciLive(mine.sessionId), false, 'never announced');
    assert.deepEqual(await heard({ merchant_id: mine.merchantId, livemode: true, connected: true }, new Date('2026-11-20T10:00:00Z')), { merchantId: mine.merchantId, flouciLive: true });
    assert.equal(await flouciLive(mine.sessionId), true);
    assert.equal(await flouciLive(theirs.sessionId), false);
  });

  it('when announcements come again or late, then the newest wins', async () => {
    const { merchantId, sessionId } = await liveSession();
    const [early, middle, late] = ['2026-11-20T10:00:00Z', '2026-11-20T10:05:00Z', '2026-11-20T10:10:00Z'].map((iso) => new Date(iso)) as [Date, Date, Date];
    assert.ok(await heard({ merchant_id: merchantId, livemode: true, connected: true }, middle));
    assert.equal(await heard({ merchant_id: merchantId, livemode: true, connected: true }, middle), undefined, 'a redelivery changes nothing');
    assert.equal(await heard({ merchant_id: merchantId, livemode: true, connected: false }, early), undefined, 'an older removal changes nothing');
    assert.equal(await flouciLive(sessionId), true);
    assert.deepEqual(await heard({ merchant_id: merchantId, livemode: true, connected: false }, late), { merchantId, flouciLive: false });
    assert.equal(await flouciLive(sessionId), false);
  });
});
