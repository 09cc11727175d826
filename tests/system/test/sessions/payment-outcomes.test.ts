/**
 * Payment outcomes that reach the session only as the adapter's events (its
 * answer was lost): recorded once however often they are delivered, with the
 * session's move decided from its row (INTERFACE 3.1; D11).
 */
import assert from 'node:assert/strict';
import { newId, type Envelope, type SessionEventData } from '@gateway/contracts';
import { eventEnvelope } from '@gateway/messaging';
import { connect } from 'amqplib';
import { pollUntil, sessionRequest, testEnvironment, TestSystem, type EventCapture } from '@gateway/testkit';

type Detail = { id: string; status: string; amount: string; attempts: { id: string; status: string; fee_amount: string; net_amount: string; failure_code: string }[] };

describe('Payment outcomes by event', function () {
  this.timeout(60_000);
  let system: TestSystem;
  let events: EventCapture;

  before(async () => {
    system = await TestSystem.start();
    events = await system.captureEvents(['session.*']);
  });
  after(async () => {
    await events?.stop();
    await system?.shutdown();
  });

  const ofSession = (id: string) => (e: Envelope<SessionEventData>) => e.data.session.id === id;

  /** A session with attempt `n` of `maxAttempts` PROCESSING, as a replica leaves it that died waiting for the adapter's answer. */
  async function processing(maxAttempts = 3, n = 1): Promise<{ session: Detail; merchantId: string; attemptId: string; key: string }> {
    const merchant = await system.newMerchant();
    const created = await system.api(merchant.testKey).post<Detail>('/gateway/sessions/', sessionRequest({ max_attempts: maxAttempts }));
    assert.equal(created.status, 201, created.text);
    const attemptId = newId('pa');
    await system.db.query(`UPDATE session.sessions SET status = 'PROCESSING', attempts_count = $2 WHERE id = $1`, [created.body.id, n]);
    await system.db.query(`INSERT INTO session.attempts (id, session_id, attempt_number, status, created_at) VALUES ($1, $2, $3, 'PROCESSING', now())`, [
      attemptId,
      created.body.id,
      n,
    ]);
    return { session: created.body, merchantId: merchant.merchantId, attemptId, key: merchant.testKey };
  }

  function approvalOf(attemptId: string, sessionId: string, merchantId: string, amount: string) {
    return eventEnvelope(
      'payment.approved',
      {
        attempt_id: attemptId,
        session_id: sessionId,
        merchant_id: merchantId,
        livemode: false,
        card_brand: 'visa',
        card_last_four: '4242',
        amount,
        card_country: '',
        fee_amount: '3.438',
        net_amount: '122.062',
        paid_at: new Date().toISOString(),
      },
      'outcome-by-event',
    );
  }

  function declineOf(attemptId: string, sessionId: string, merchantId: string) {
    return eventEnvelope(
      'payment.declined',
      {
        attempt_id: attemptId,
        session_id: sessionId,
        merchant_id: merchantId,
        livemode: false,
        card_brand: 'visa',
        card_last_four: '0002',
        failure_code: 'card_declined',
        failure_message: 'The card was declined.',
      },
      'decline-by-event',
    );
  }

  const statusOf = async (table: 'sessions' | 'attempts', id: string) =>
    (await system.db.query<{ status: string }>(`SELECT status FROM session.${table} WHERE id = $1`, [id]))[0]?.status;

  it('when payment.approved arrives twice, then the session is SUCCEEDED once, announced once, and no inbox row is kept', async () => {
    const { session, merchantId, attemptId, key } = await processing();
    const approved = approvalOf(attemptId, session.id, merchantId, session.amount);
    await system.publishEvents([approved, approved]);
    const [succeeded] = await events.waitFor<SessionEventData>('session.succeeded', ofSession(session.id));
    assert.equal(succeeded?.data.session.status, 'SUCCEEDED');
    assert.equal(succeeded?.correlation_id, 'outcome-by-event');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    assert.equal(events.of('session.succeeded', ofSession(session.id)).length, 1);
    assert.deepEqual(await system.db.query("SELECT to_regclass('session.inbox') AS inbox"), [{ inbox: null }]);
    const detail = await system.api(key).get<Detail>(`/gateway/sessions/${session.id}/`);
    assert.equal(detail.body.status, 'SUCCEEDED');
    assert.deepEqual(
      detail.body.attempts.map((a) => [a.id, a.status, a.fee_amount, a.net_amount]),
      [[attemptId, 'SUCCEEDED', '3.438', '122.062']],
    );
  });

  it('when an outcome names another session than its attempt\'s, then neither session nor the attempt moves and nothing is announced', async () => {
    const first = await processing();
    const second = await processing();
    await system.publishEvents([approvalOf(first.attemptId, second.session.id, second.merchantId, second.session.amount)]);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    assert.deepEqual(
      [await statusOf('sessions', first.session.id), await statusOf('sessions', second.session.id), await statusOf('attempts', first.attemptId)],
      ['PROCESSING', 'PROCESSING', 'PROCESSING'],
    );
    assert.equal(events.of('session.succeeded', ofSession(first.session.id)).length + events.of('session.succeeded', ofSession(second.session.id)).length, 0);

    await system.publishEvents([approvalOf(first.attemptId, first.session.id, first.merchantId, first.session.amount)]);
    await events.waitFor<SessionEventData>('session.succeeded', ofSession(first.session.id));
    assert.equal(await statusOf('attempts', first.attemptId), 'SUCCEEDED');
  });

  it('when a declined attempt\'s late approval arrives while the next attempt runs, then nothing moves; the running attempt\'s own outcome still settles the session', async () => {
    const { session, merchantId, attemptId } = await processing(3, 2);
    const declinedId = newId('pa');
    await system.db.query(
      `INSERT INTO session.attempts (id, session_id, attempt_number, status, failure_code, created_at, completed_at) VALUES ($1, $2, 1, 'FAILED', 'card_declined', now(), now())`,
      [declinedId, session.id],
    );
    await system.publishEvents([approvalOf(declinedId, session.id, merchantId, session.amount)]);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    assert.deepEqual([await statusOf('sessions', session.id), await statusOf('attempts', declinedId)], ['PROCESSING', 'FAILED']);
    assert.equal(events.of('session.succeeded', ofSession(session.id)).length, 0);

    await system.publishEvents([approvalOf(attemptId, session.id, merchantId, session.amount)]);
    const [succeeded] = await events.waitFor<SessionEventData>('session.succeeded', ofSession(session.id));
    assert.equal(succeeded?.data.session.status, 'SUCCEEDED');
    assert.deepEqual([await statusOf('attempts', attemptId), await statusOf('attempts', declinedId)], ['SUCCEEDED', 'FAILED']);
  });

  it('when a decline arrives after the session\'s lifetime ended, then session.failed says can_retry false', async () => {
    const { session, merchantId, attemptId } = await processing(3, 1);
    await system.db.query(`UPDATE session.sessions SET expires_at = now() - interval '1 second' WHERE id = $1`, [session.id]);
    const declined = declineOf(attemptId, session.id, merchantId);
    await system.publishEvents([declined]);
    const [failed] = await events.waitFor<SessionEventData>('session.failed', ofSession(session.id));
    assert.equal(failed?.data.session.can_retry, false);
  });

  it('when the last attempt is declined by event, then the session is FAILED with the decline, can_retry false; with attempts left, PENDING', async () => {
    for (const [maxAttempts, status, canRetry] of [
      [2, 'FAILED', false],
      [3, 'PENDING', true],
    ] as const) {
      const { session, merchantId, attemptId } = await processing(maxAttempts, 2);
      const declined = declineOf(attemptId, session.id, merchantId);
      await system.publishEvents([declined, declined]);
      const [failed] = await events.waitFor<SessionEventData>('session.failed', ofSession(session.id));
      const payload = failed?.data.session;
      assert.deepEqual(
        [payload?.status, payload?.can_retry, payload?.attempts_count, payload?.last_failure_code, payload?.last_failure_message],
        [status, canRetry, 2, 'card_declined', 'The card was declined.'],
      );
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.equal(events.of('session.failed', ofSession(session.id)).length, 1);
    }
  });

  describe('from a broker user that does not publish them (D17)', () => {
    /** The session's count of refused events of `type`. */
    const refused = async (type: string) => {
      const line = (await system.metricsOf('session')).split('\n').find((l) => l.startsWith('gateway_messages_refused_total{') && l.includes('kind="event"') && l.includes(`type="${type}"`));
      return line ? Number(line.split(' ').pop()) : 0;
    };

    it('when payment.approved is put straight on the session\'s event queue by the operators\' or the checkout\'s broker user, then it is dead-lettered, counted, and the session stays PROCESSING', async () => {
      const { session, merchantId, attemptId } = await processing();
      const forged = approvalOf(attemptId, session.id, merchantId, session.amount);
      const queue = `${system.prefix}.session.events`;
      for (const impostor of ['gateway-admin', 'checkout'] as const) {
        await system.publishConfirmedAs(impostor, async (channel, userId) => {
          channel.publish('', queue, Buffer.from(JSON.stringify(forged)), { persistent: true, contentType: 'application/json', userId });
        });
      }
      // Unstamped, as a client that sets no user_id publishes.
      await system.publishConfirmedAs('gateway-admin', async (channel) => {
        channel.publish('', queue, Buffer.from(JSON.stringify(forged)), { persistent: true, contentType: 'application/json' });
      });
      await pollUntil(async () => (await refused('payment.approved')) === 3, 10_000, 'three refusals counted');
      assert.equal(await statusOf('sessions', session.id), 'PROCESSING');
      assert.equal(await statusOf('attempts', attemptId), 'PROCESSING');
      assert.equal(events.of('session.succeeded', ofSession(session.id)).length, 0);
      const connection = await connect((await testEnvironment()).amqpUrl);
      try {
        const channel = await connection.createChannel();
        await pollUntil(async () => (await channel.checkQueue(`${queue}.dead`)).messageCount >= 3, 5_000, 'the forged events dead-lettered');
      } finally {
        await connection.close();
      }

      // The adapter's own event still goes through.
      await system.publishEvents([approvalOf(attemptId, session.id, merchantId, session.amount)]);
      await events.waitFor<SessionEventData>('session.succeeded', ofSession(session.id));
    });

    it('when a service publishes an event it does not own on the events exchange, then the broker refuses it', async () => {
      const { session, merchantId, attemptId } = await processing();
      const forged = approvalOf(attemptId, session.id, merchantId, session.amount);
      await assert.rejects(
        system.publishConfirmedAs('refund', async (channel, userId) => {
          channel.publish(`${system.prefix}.events`, 'payment.approved', Buffer.from(JSON.stringify(forged)), { persistent: true, userId });
        }),
        /ACCESS_REFUSED|closed/i,
      );
      assert.equal(await statusOf('sessions', session.id), 'PROCESSING');
    });

    it('when a message claims another broker user as its user_id, then the broker refuses it', async () => {
      const { session, merchantId, attemptId } = await processing();
      const forged = approvalOf(attemptId, session.id, merchantId, session.amount);
      await assert.rejects(
        system.publishConfirmedAs('gateway-admin', async (channel) => {
          channel.publish('', `${system.prefix}.session.events`, Buffer.from(JSON.stringify(forged)), { persistent: true, userId: `${system.prefix}.acquirer-adapter` });
        }),
        /PRECONDITION_FAILED|closed/i,
      );
      assert.equal(await statusOf('sessions', session.id), 'PROCESSING');
    });
  });
});
