/**
 * The SDK against a running system (gateway, session, checkout, acquirer
 * adapter, sandbox, refund, webhook dispatcher; real PostgreSQL, RabbitMQ and
 * Redis): every resource call, pagination, the retries that must never pay or
 * refund twice, typed problems, and webhook verification on a real delivery.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { payOnPage, pollUntil, TestSystem, WebhookReceiver, type Merchant } from '@gateway/testkit';
import { ConflictError, ConnectionError, Gateway, NotFoundError, RateLimitError, SignatureVerificationError, ValidationError, type CreateSessionRequest, type WebhookDelivery } from '@gateway/sdk';

const buyer = (overrides: Partial<CreateSessionRequest> = {}): CreateSessionRequest => ({
  amount: '125.500',
  merchant_reference: `sdk-${randomUUID()}`,
  first_name: 'Amina',
  last_name: 'Ben Salah',
  email: 'amina@example.tn',
  ...overrides,
});

describe('@gateway/sdk against the running system', function () {
  this.timeout(60_000);
  let system: TestSystem;
  const receivers: WebhookReceiver[] = [];

  before(async () => {
    system = await TestSystem.start();
  });
  after(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    await system?.shutdown();
  });

  async function merchant(options: Parameters<TestSystem['newMerchant']>[0] = { limits: { account: 1000, create: 1000, refund: 1000 } }): Promise<Merchant> {
    return system.newMerchant(options);
  }

  const client = (key: string, options: ConstructorParameters<typeof Gateway>[1] = {}) => new Gateway(key, { baseUrl: system.baseUrl, initialRetryDelayMs: 50, ...options });

  it('when a session is created, read and canceled, then each call answers the typed resource', async () => {
    const gateway = client((await merchant()).testKey);
    const created = await gateway.sessions.create(buyer({ amount: '42.000', description: 'SDK order' }));
    assert.match(created.id, /^ps_/);
    assert.equal(created.amount, '42.000');
    assert.equal(created.status, 'CREATED');
    assert.ok(created.checkout_url?.startsWith(system.baseUrl));

    const read = await gateway.sessions.get(created.id);
    assert.equal(read.merchant_reference, created.merchant_reference);

    const canceled = await gateway.sessions.cancel(created.id);
    assert.equal(canceled.status, 'CANCELED');
    assert.equal((await gateway.sessions.get(created.id)).status, 'CANCELED');
  });

  it('when a list spans several pages, then iterating it yields every session once, newest first (or toward newer ones from ending_before), and page() gives one page', async () => {
    const gateway = client((await merchant()).testKey);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await gateway.sessions.create(buyer())).id);

    const seen: string[] = [];
    for await (const session of gateway.sessions.list({ limit: 2 })) seen.push(session.id);
    assert.deepEqual(seen, [...ids].reverse());

    const first = await gateway.sessions.list({ limit: 2 }).page();
    assert.deepEqual(first.data.map((s) => s.id), [ids[4], ids[3]]);
    assert.equal(first.has_more, true);

    // From the oldest, toward newer sessions: each page is newest first, the pages walk forward in time.
    const newer: string[] = [];
    for await (const session of gateway.sessions.list({ limit: 2, ending_before: ids[0] })) newer.push(session.id);
    assert.deepEqual(newer, [ids[2], ids[1], ids[4], ids[3]]);
  });

  it('when the answer to a refund is lost and the SDK retries, then the retry replays the first answer and the session is refunded once', async () => {
    const m = await merchant();
    const session = await client(m.testKey).sessions.create(buyer({ amount: '80.000' }));
    assert.equal((await payOnPage(session.checkout_url ?? '', { card_number: '4242424242424242' })).status, 200);

    const keys: (string | null)[] = [];
    let dropped = false;
    // The first refund reaches the gateway and is carried out; only its answer is lost on the way back.
    const dropFirstAnswer: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (String(input).includes('/refund/')) {
        keys.push(new Headers(init?.headers).get('idempotency-key'));
        if (!dropped) {
          dropped = true;
          await response.body?.cancel();
          throw new TypeError('fetch failed');
        }
      }
      return response;
    };
    const gateway = client(m.testKey, { fetch: dropFirstAnswer });
    const result = await gateway.sessions.refund(session.id, { reason: 'Returned', refund_type: 'PARTIAL', amount: '30.000' });

    assert.equal(result.refunded_amount, '30.000');
    assert.equal(keys.length, 2);
    assert.ok(keys[0]);
    assert.equal(keys[1], keys[0], 'both attempts carried one Idempotency-Key');
    const refunds = await gateway.refunds.list(session.id);
    assert.equal(refunds.length, 1, 'refunded once');
    assert.equal(refunds[0]?.refund_id, result.refund_id);
    assert.equal((await gateway.refunds.get(result.refund_id)).amount, '30.000');
    assert.equal((await gateway.sessions.get(session.id)).amount_refunded, '30.000');
  });

  it('when a manual session is paid and 10.000 of its hold captured, then it is SUCCEEDED with amount_captured, and a second capture is a ConflictError (session-terminal)', async () => {
    const gateway = client((await merchant()).testKey);
    const session = await gateway.sessions.create(buyer({ amount: '25.000', capture_method: 'manual' }));
    assert.equal(session.capture_method, 'manual');
    await payOnPage(session.checkout_url ?? '', { card_number: '4242424242424242' });
    const held = await gateway.sessions.get(session.id);
    assert.equal(held.status, 'AUTHORIZED');
    assert.equal(held.amount_authorized, '25.000');
    assert.equal(held.amount_captured, '');

    const captured = await gateway.sessions.capture(session.id, { amount: '10.000' });
    assert.equal(captured.status, 'SUCCEEDED');
    assert.equal(captured.amount_captured, '10.000');
    assert.equal((await gateway.sessions.get(session.id)).amount_captured, '10.000');
    await assert.rejects(gateway.sessions.capture(session.id), (err: unknown) => err instanceof ConflictError && err.status === 409 && err.code === 'session-terminal');
  });

  it('when the caller gives an Idempotency-Key, then a second call with it replays the first answer instead of failing on the canceled session', async () => {
    const gateway = client((await merchant()).testKey);
    const session = await gateway.sessions.create(buyer());
    const key = randomUUID();
    const first = await gateway.sessions.cancel(session.id, { idempotencyKey: key });
    // Without the key the second cancel would be 409 session-terminal.
    const second = await gateway.sessions.cancel(session.id, { idempotencyKey: key });
    assert.deepEqual(second, first);
  });

  it('when customers are made, listed, read and deleted through gateway.customers, then each call answers the typed resource (D24)', async () => {
    const gateway = client((await merchant()).testKey);
    const made = await gateway.customers.create({ email: 'sami@example.tn', external_id: `sdk-${randomUUID()}` });
    assert.match(made.id, /^cus_/);
    assert.equal((await gateway.customers.create({ external_id: made.external_id ?? '' })).id, made.id);
    const other = await gateway.customers.create({ email: 'leila@example.tn' });
    const listed: string[] = [];
    for await (const customer of gateway.customers.list({ limit: 1 })) listed.push(customer.id);
    assert.deepEqual(listed, [other.id, made.id]);
    assert.deepEqual((await gateway.customers.list({ email: 'sami@example.tn' }).page()).data.map((c) => c.id), [made.id]);
    assert.deepEqual(await gateway.customers.paymentMethods.list(made.id), []);
    await assert.rejects(gateway.customers.paymentMethods.delete(made.id, 'pm_000000000000000000000000'), NotFoundError);
    assert.deepEqual(await gateway.customers.delete(made.id), { id: made.id, deleted: true });
    await assert.rejects(gateway.customers.get(made.id), NotFoundError);
    const session = await gateway.sessions.create(buyer({ customer: other.id, save_card: 'on_session' }));
    assert.equal(session.customer, other.id);
  });

  it('when a create fails validation, then a ValidationError carries every field error', async () => {
    const gateway = client((await merchant()).testKey);
    await assert.rejects(
      gateway.sessions.create({ ...buyer(), amount: '12.50', email: 'not-an-email' }),
      (err: unknown) => {
        assert.ok(err instanceof ValidationError);
        assert.equal(err.status, 422);
        assert.equal(err.code, 'validation-error');
        assert.equal(err.title, 'Validation Error');
        const fields = err.errors.map((e) => `${e.field}:${e.code}`).sort();
        assert.deepEqual(fields, ['amount:invalid_precision', 'email:invalid']);
        return true;
      },
    );
  });

  it('when a session does not exist, then a NotFoundError is thrown without retrying', async () => {
    let calls = 0;
    const counting: typeof fetch = (input, init) => {
      calls++;
      return fetch(input, init);
    };
    const gateway = client((await merchant()).testKey, { fetch: counting });
    await assert.rejects(gateway.sessions.get('ps_00000000000000000000000000'), NotFoundError);
    assert.equal(calls, 1);
  });

  it('when the account budget is spent, then the SDK waits the Retry-After and the call succeeds; without retries a RateLimitError says how long to wait', async () => {
    const m = await merchant({ limits: { account: 1 } });
    const statuses: number[] = [];
    const recording: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      statuses.push(response.status);
      return response;
    };
    const patient = client(m.testKey, { fetch: recording });
    const impatient = client(m.testKey, { maxRetries: 0 });

    const session = await patient.sessions.create(buyer());
    await assert.rejects(impatient.sessions.get(session.id), (err: unknown) => {
      assert.ok(err instanceof RateLimitError);
      assert.equal(err.status, 429);
      assert.ok((err.retryAfterSeconds ?? 0) >= 1);
      return true;
    });
    const started = Date.now();
    assert.equal((await patient.sessions.get(session.id)).id, session.id);
    assert.deepEqual(statuses, [201, 429, 200]);
    // The bucket refills one token a second: answering sooner would mean Retry-After was ignored.
    assert.ok(Date.now() - started >= 500, `retried after ${Date.now() - started} ms`);
  });

  it('when the gateway cannot be reached, then a ConnectionError follows the retries', async () => {
    let calls = 0;
    const unreachable: typeof fetch = () => {
      calls++;
      return Promise.reject(new TypeError('fetch failed'));
    };
    const gateway = client((await merchant()).testKey, { fetch: unreachable, maxRetries: 2, initialRetryDelayMs: 1 });
    await assert.rejects(gateway.sessions.create(buyer()), ConnectionError);
    assert.equal(calls, 3);
  });

  it('when a real delivery arrives, then constructEvent returns the typed event; a tampered body or a wrong secret is refused', async () => {
    const receiver = await WebhookReceiver.start();
    receivers.push(receiver);
    const m = await merchant({ limits: { account: 1000 }, webhookUrl: receiver.url() });
    const gateway = client(m.testKey);
    const session = await gateway.sessions.create(buyer({ amount: '19.900', metadata: { cart: 'c-7' } }));
    await payOnPage(session.checkout_url ?? '', { card_number: '4242424242424242' });
    await receiver.waitFor((received) => received.some((r) => r.body.event === 'session.succeeded'));
    const delivery = receiver.received.find((r) => r.body.event === 'session.succeeded');
    assert.ok(delivery);

    const event = gateway.webhooks.constructEvent(delivery.raw, delivery.signature, m.webhookSecret);
    assert.equal(event.event, 'session.succeeded');
    assert.equal(event.id, delivery.eventId);
    assert.equal(event.data.id, session.id);
    assert.equal(event.data.amount, '19.900');
    assert.deepEqual(event.data.metadata, { cart: 'c-7' });
    assert.equal(event.data.payment?.card_last_four, '4242');

    // The dispatcher records the attempt's outcome just after the receiver answered.
    let deliveries: WebhookDelivery[] = [];
    await pollUntil(
      async () => {
        deliveries = [];
        for await (const record of gateway.webhookDeliveries.list({ limit: 1 })) deliveries.push(record);
        return deliveries.some((record) => record.event_id === event.id && record.status === 'SUCCEEDED');
      },
      5_000,
      'the delivery recorded as SUCCEEDED',
    );
    const ofSession = [];
    for await (const record of gateway.sessions.listWebhookDeliveries(session.id, { limit: 1 })) ofSession.push(record);
    assert.deepEqual(
      ofSession.map((record) => record.id),
      deliveries.filter((record) => record.session_id === session.id).map((record) => record.id),
    );

    const tampered = Buffer.from(delivery.raw.toString('utf8').replace('19.900', '1.900'));
    assert.throws(() => gateway.webhooks.constructEvent(tampered, delivery.signature, m.webhookSecret), SignatureVerificationError);
    assert.throws(() => gateway.webhooks.constructEvent(delivery.raw, delivery.signature, `${m.webhookSecret}x`), SignatureVerificationError);
    // Verified later than the tolerance after signing, a captured delivery is refused.
    const late = Math.floor(delivery.at / 1000) + 400;
    assert.throws(() => gateway.webhooks.constructEvent(delivery.raw, delivery.signature, m.webhookSecret, { tolerance: 300, nowSeconds: late }), SignatureVerificationError);
  });
});
