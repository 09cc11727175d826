/**
 * One payment as one OpenTelemetry trace: with OTEL_EXPORTER_OTLP_ENDPOINT
 * set, every service exports its spans to the test's OTLP/HTTP receiver, and
 * the buyer's pay request, the commands and events it leads to (traceparent in
 * the AMQP headers, kept with the outbox row), the database statements and the
 * acquirer's HTTP calls share one trace id, parent to child across the broker.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { OTLP_SPAN_KIND, OtlpReceiver, sessionRequest, TestSystem, WebhookReceiver, type ReceivedSpan } from '@gateway/testkit';

const CARD = '4242424242424242';

describe('Traces across services', function () {
  this.timeout(90_000);
  let otlp: OtlpReceiver;
  let system: TestSystem;
  let receiver: WebhookReceiver;

  before(async () => {
    otlp = await OtlpReceiver.start();
    // Spans leave every 100 ms instead of every 5 s.
    // Child processes: each service starts its own tracing.
    system = await TestSystem.start({ launch: 'child-process', env: { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.endpoint(), OTEL_BSP_SCHEDULE_DELAY: '100' } });
    receiver = await WebhookReceiver.start();
  });
  after(async () => {
    await receiver?.close();
    await system?.shutdown();
    await otlp?.close();
  });

  function logLines(service: string): Record<string, unknown>[] {
    return readFileSync(join(system.logDir, `${service}.log`), 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  }

  /** The chain of spans from `span` up to its trace's root, as far as the receiver has them. */
  function ancestry(span: ReceivedSpan, trace: readonly ReceivedSpan[]): ReceivedSpan[] {
    const chain = [span];
    for (let at = span; at.parentSpanId; ) {
      const parent = trace.find((s) => s.spanId === at.parentSpanId);
      if (!parent) break;
      chain.push(parent);
      at = parent;
    }
    return chain;
  }

  it('when a buyer pays, then the spans of gateway, checkout, session, adapter, sandbox, dispatcher, ledger and notifier share one trace, with HTTP, AMQP and database spans, parent to child across the broker', async () => {
    const merchant = await system.newMerchant({ webhookUrl: receiver.url() });
    const created = await system.api(merchant.testKey).post<{ id: string; checkout_url: string }>('/gateway/sessions/', sessionRequest());
    assert.equal(created.status, 201, created.text);
    const token = new URL(created.body.checkout_url).pathname.split('/').at(-1) ?? '';
    const correlationId = `pay-${randomUUID()}`;
    const paid = await fetch(`${created.body.checkout_url}/pay`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'x-request-id': correlationId, 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'en' },
      body: new URLSearchParams({ card_number: CARD, expiry: '12/34', cvc: '123', cardholder_name: 'Amina Ben Salah' }),
    });
    assert.equal(paid.status, 200);
    assert.match(await paid.text(), /Payment successful/);
    await receiver.waitFor((r) => r.some((x) => x.body.event === 'session.succeeded' && x.body.data['id'] === created.body.id));

    // The session's publish of session.succeeded names the payment by its correlation id; its trace is the payment's.
    const published = await otlp.waitForSpan(
      (s) => s.service === 'session' && s.kind === OTLP_SPAN_KIND.producer && s.name === 'publish session.succeeded' && s.attributes['messaging.message.conversation_id'] === correlationId,
    );
    const consumed = await otlp.waitForSpan((s) => s.service === 'webhook-dispatcher' && s.kind === OTLP_SPAN_KIND.consumer && s.parentSpanId === published.spanId);
    assert.equal(consumed.traceId, published.traceId);
    assert.equal(consumed.name, 'process session.succeeded');
    assert.equal(consumed.attributes['messaging.system'], 'rabbitmq');
    // The webhook's POST, under the delivery that brought its event.
    const posted = await otlp.waitForSpan((s) => s.service === 'webhook-dispatcher' && s.name === 'POST webhook' && s.traceId === published.traceId);
    assert.equal(posted.kind, OTLP_SPAN_KIND.client);
    assert.equal(posted.parentSpanId, consumed.spanId);
    assert.equal(posted.attributes['http.response.status_code'], 200);
    assert.ok(receiver.received.every((r) => r.headers['traceparent'] === undefined), 'merchants are sent no traceparent');

    const traceId = published.traceId;
    const wanted = ['api-gateway', 'checkout', 'session', 'acquirer-adapter', 'epg-sandbox', 'webhook-dispatcher', 'ledger', 'notifier'];
    const deadline = Date.now() + 10_000;
    let trace = otlp.trace(traceId);
    const servicesOf = () => new Set(trace.map((s) => s.service));
    while (wanted.some((service) => !servicesOf().has(service)) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      trace = otlp.trace(traceId);
    }
    assert.deepEqual([...servicesOf()].sort(), [...wanted].sort(), 'services with spans in the payment trace');

    // HTTP: the buyer's request at the gateway, passed to checkout, and the adapter's calls to the sandbox.
    const gatewayEntry = trace.find((s) => s.service === 'api-gateway' && s.kind === OTLP_SPAN_KIND.server);
    assert.equal(gatewayEntry?.name, 'POST /checkout/*');
    assert.equal(gatewayEntry?.attributes['http.response.status_code'], 200);
    assert.ok(trace.some((s) => s.service === 'checkout' && s.kind === OTLP_SPAN_KIND.server && s.attributes['http.route'] === '/checkout/:token/pay'));
    const acquirerCall = trace.find((s) => s.service === 'acquirer-adapter' && s.kind === OTLP_SPAN_KIND.client && s.name === 'POST paymentorder.do');
    assert.ok(acquirerCall, 'the adapter has a client span for paymentorder.do');
    const atSandbox = trace.find((s) => s.service === 'epg-sandbox' && s.kind === OTLP_SPAN_KIND.server && s.parentSpanId === acquirerCall.spanId);
    assert.equal(atSandbox?.attributes['http.route'], '/payment/rest/:call');
    // AMQP: the commands of the payment, each sent and processed.
    for (const command of ['attempt.pay', 'payment.authorize']) {
      const sent = trace.find((s) => s.kind === OTLP_SPAN_KIND.client && s.name === `send ${command}`);
      assert.ok(sent, `a span sending ${command}`);
      const processed = trace.find((s) => s.kind === OTLP_SPAN_KIND.consumer && s.name === `process ${command}`);
      assert.equal(processed?.parentSpanId, sent.spanId, `${command} is processed under the span that sent it`);
      assert.notEqual(processed.service, sent.service);
    }
    // PostgreSQL: the statements that recorded the order and the outcome.
    const statements = trace.filter((s) => s.attributes['db.system.name'] === 'postgresql');
    assert.ok(statements.some((s) => s.service === 'session' && s.name === 'attempt-resolve'), 'the session records the outcome under the trace');
    assert.ok(statements.some((s) => s.service === 'acquirer-adapter'), 'the adapter records the order under the trace');
    assert.ok(statements.every((s) => s.kind === OTLP_SPAN_KIND.client && typeof s.attributes['db.query.text'] === 'string'));
    // The relays' rounds publish many traces' rows: woken by this payment's commits, they are still not part of its trace.
    assert.ok(!statements.some((s) => String(s.attributes['db.query.text']).includes('claimed_until')), 'an outbox relay round in the payment trace');

    // From the webhook's event back to the buyer's request: through the broker, the session, checkout and the gateway.
    const chain = ancestry(consumed, trace);
    assert.equal(chain.at(-1)?.spanId, gatewayEntry?.spanId, 'the chain ends at the gateway span of the pay request');
    assert.equal(gatewayEntry?.parentSpanId, '', 'the pay request starts the trace');
    // (Through the adapter too when its event recorded the outcome before its answer did.)
    const hops = chain.map((s) => s.service).filter((service, i, all) => service !== all[i - 1]);
    assert.deepEqual(hops.slice(0, 2), ['webhook-dispatcher', 'session'], hops.join(' < '));
    assert.deepEqual(hops.slice(-2), ['checkout', 'api-gateway'], hops.join(' < '));

    // Logs name the trace where they name the correlation id.
    const sessionLines = logLines('session').filter((line) => line['correlationId'] === correlationId);
    assert.ok(sessionLines.length > 0);
    assert.ok(sessionLines.every((line) => line['traceId'] === traceId));

    // Nothing a span records holds the card number, a key or the checkout token.
    const recorded = JSON.stringify(otlp.spans);
    for (const secret of [CARD, merchant.testKey, merchant.webhookSecret, token]) assert.ok(!recorded.includes(secret), 'a span holds a secret');
    assert.equal(otlp.unreadable, 0);
    for (const file of readdirSync(system.logDir)) assert.ok(!readFileSync(join(system.logDir, file), 'utf8').includes(CARD), `${file} holds the card number`);
  });

  it("when creates share one group commit, then each create's trace holds its wait, linked both ways to the statement, which has a trace of its own with the INSERT", async () => {
    // Over the test-mode create budget of 5 a second: all eight at once.
    const merchant = await system.newMerchant({ limits: { account: 100, create: 100 } });
    const api = system.api(merchant.testKey);
    const ids = Array.from({ length: 8 }, () => `create-${randomUUID()}`);
    const created = await Promise.all(ids.map((id) => api.post('/gateway/sessions/', sessionRequest(), { 'x-request-id': id })));
    assert.deepEqual(created.map((r) => r.status), ids.map(() => 201));

    const statements = new Map<string, ReceivedSpan>();
    for (const id of ids) {
      // The create's command is sent in the trace of its request, named by the request's id.
      const sent = await otlp.waitForSpan((s) => s.service === 'api-gateway' && s.name === 'send session.create' && s.attributes['messaging.message.conversation_id'] === id);
      const wait = await otlp.waitForSpan((s) => s.service === 'session' && s.name === 'session insert (group commit)' && s.traceId === sent.traceId);
      // Part of the create request's trace: under the session's work, in the trace the gateway's request started.
      const parent = await otlp.waitForSpan((s) => s.spanId === wait.parentSpanId);
      assert.equal(parent.service, 'session');
      await otlp.waitForSpan((s) => s.service === 'api-gateway' && s.kind === OTLP_SPAN_KIND.server && s.parentSpanId === '' && s.traceId === sent.traceId);
      assert.equal(wait.links.length, 1, 'the wait links to the one statement that carried it');
      const statement = await otlp.waitForSpan((s) => s.spanId === wait.links[0]?.spanId);
      assert.equal(statement.name, 'session insert batch');
      assert.notEqual(statement.traceId, sent.traceId, 'the statement is in no create\'s trace');
      assert.equal(statement.parentSpanId, '');
      assert.ok(statement.links.some((link) => link.spanId === wait.spanId && link.traceId === wait.traceId), 'the statement links back to the wait');
      assert.equal(wait.attributes['db.operation.batch.size'], statement.attributes['db.operation.batch.size']);
      statements.set(statement.spanId, statement);
      // The INSERT runs under the statement's span, not under any request's.
      assert.ok(!otlp.trace(sent.traceId).some((s) => s.name === 'session-insert-batch'), 'the INSERT in a create\'s trace');
    }
    for (const statement of statements.values()) {
      assert.equal(statement.links.length, statement.attributes['db.operation.batch.size'], 'one link for each create the statement carried');
      const insert = await otlp.waitForSpan((s) => s.name === 'session-insert-batch' && s.parentSpanId === statement.spanId);
      assert.equal(insert.attributes['db.system.name'], 'postgresql');
    }
  });
});
