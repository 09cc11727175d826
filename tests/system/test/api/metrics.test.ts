/** GET /metrics on every service of a running system: the families each one owns, and nothing secret in any of them. */
import assert from 'node:assert/strict';
import { ALL_SERVICES, metricValue as valueOf, sessionRequest, TestSystem, type Merchant, type ServiceProcess } from '@gateway/testkit';

type Body = Record<string, unknown>;

async function scrape(system: TestSystem, service: ServiceProcess): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${system.ports.get(service) ?? 0}/metrics`);
  assert.equal(res.status, 200, `${service} /metrics`);
  assert.match(res.headers.get('content-type') ?? '', /^text\/plain/);
  return res.text();
}

function assertFamily(text: string, family: string, type: string, service: string): void {
  assert.match(text, new RegExp(`^# TYPE ${family} ${type}$`, 'm'), `${service} lacks ${family}`);
}

describe('Prometheus metrics on every service', function () {
  this.timeout(120_000);
  let system: TestSystem;
  let merchant: Merchant;
  let sessionId: string;

  before(async () => {
    // Child processes: each service's /metrics, labelled with its own name.
    system = await TestSystem.start({ launch: 'child-process' });
    merchant = await system.newMerchant();
    const api = system.api(merchant.testKey);
    const created = await api.post<Body>('/gateway/sessions/', sessionRequest());
    assert.equal(created.status, 201);
    sessionId = String(created.body['id']);
    const canceled = await api.post<Body>(`/gateway/sessions/${sessionId}/cancel/`);
    assert.equal(canceled.status, 200);
  });

  after(async () => {
    await system?.shutdown();
  });

  it('when a session is created and canceled, then every service serves /metrics with the families it owns and no id or key', async () => {
    // The cancel's event leaves the session outbox and reaches the dispatcher's queue asynchronously.
    let session = '';
    let dispatcher = '';
    for (let i = 0; i < 50; i += 1) {
      session = await scrape(system, 'session');
      dispatcher = await scrape(system, 'webhook-dispatcher');
      const counted = valueOf(session, 'gateway_sessions_completed_total', ['outcome="canceled"']) ?? 0;
      const taken = valueOf(dispatcher, 'gateway_consumer_events_handled_total', ['type="session.canceled"', 'outcome="handled"']) ?? 0;
      if (counted >= 1 && taken >= 1) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const texts = new Map<ServiceProcess, string>();
    for (const service of ALL_SERVICES) texts.set(service, await scrape(system, service));
    texts.set('session', session);
    texts.set('webhook-dispatcher', dispatcher);

    for (const [service, text] of texts) {
      assertFamily(text, 'gateway_http_requests_total', 'counter', service);
      assertFamily(text, 'gateway_http_request_duration_seconds', 'histogram', service);
      assert.match(text, /^process_cpu_user_seconds_total\{service="[a-z-]+"\} /m, `${service} default metrics with its service label`);
      assert.ok((valueOf(text, 'gateway_http_requests_total', ['route="/readyz"', 'status="200"']) ?? 0) >= 1, `${service} counted its /readyz`);
      for (const secret of [sessionId, merchant.merchantId, merchant.testKey, merchant.webhookSecret]) {
        assert.ok(!text.includes(secret), `${service} /metrics carries ${secret.slice(0, 8)}...`);
      }
    }

    const gateway = texts.get('api-gateway') ?? '';
    assert.equal(valueOf(gateway, 'gateway_http_requests_total', ['route="/api/v1/gateway/sessions"', 'method="POST"', 'status="201"']), 1);
    assert.equal(valueOf(gateway, 'gateway_http_requests_total', ['route="/api/v1/gateway/sessions/:id/cancel"', 'method="POST"', 'status="200"']), 1);
    assert.equal(valueOf(gateway, 'gateway_rpc_client_duration_seconds_count', ['command="session.create"', 'outcome="ok"']), 1);
    assert.equal(valueOf(gateway, 'gateway_rpc_client_duration_seconds_count', ['command="session.cancel"', 'outcome="ok"']), 1);
    assert.ok((valueOf(gateway, 'gateway_rpc_server_duration_seconds_count', ['command="merchant.create"', 'outcome="ok"']) ?? 0) >= 1);

    assertFamily(session, 'gateway_outbox_backlog_rows', 'gauge', 'session');
    assert.ok(valueOf(session, 'gateway_outbox_backlog_rows') !== undefined);
    assert.ok((valueOf(session, 'gateway_outbox_oldest_unsent_age_seconds') ?? -1) >= 0);
    assert.ok((valueOf(session, 'gateway_outbox_events_published_total', ['type="session.canceled"']) ?? 0) >= 1);
    assert.equal(valueOf(session, 'gateway_sessions_completed_total', ['outcome="canceled"']), 1);
    assert.ok(valueOf(session, 'gateway_consumer_messages_ready', ['queue="', 'session']) !== undefined, 'session queue depth');
    assert.ok((valueOf(session, 'gateway_rpc_server_duration_seconds_count', ['command="session.create"', 'outcome="ok"']) ?? 0) >= 1);

    assert.ok(valueOf(dispatcher, 'gateway_consumer_messages_ready', ['queue="', 'webhook-dispatcher']) !== undefined, 'dispatcher queue depth');
    assert.ok((valueOf(dispatcher, 'gateway_consumer_events_handled_total', ['type="session.canceled"', 'outcome="handled"']) ?? 0) >= 1);
    assertFamily(dispatcher, 'gateway_webhook_attempts_total', 'counter', 'webhook-dispatcher');
    assertFamily(dispatcher, 'gateway_webhook_delivery_duration_seconds', 'histogram', 'webhook-dispatcher');
    assert.ok(valueOf(dispatcher, 'gateway_webhook_retries_scheduled_total') !== undefined);
    assert.ok(valueOf(dispatcher, 'gateway_webhook_attempts_given_up_total') !== undefined);
  });

  it('when /metrics is called on the gateway with no key many times, then it answers 200 and never spends the API budgets', async () => {
    for (let i = 0; i < 30; i += 1) assert.equal((await fetch(`${system.baseUrl}/metrics`)).status, 200);
    const created = await system.api(merchant.testKey).post<Body>('/gateway/sessions/', sessionRequest());
    assert.equal(created.status, 201);
  });
});
