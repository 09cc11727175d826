import assert from 'node:assert/strict';
import express from 'express';
import { renderMetrics } from '@gateway/observability';
import { addHealthRoutes, healthApp, labelRoute, listen, type Listening } from '../../src/index.js';

/** A request on a connection of its own, closed after the answer: the server's close then waits for no idle keep-alive connection. */
const get = (url: string, method = 'GET') => fetch(url, { method, headers: { connection: 'close' } });

const SESSION_ID = 'ses_1234567890abcdef';

/** The series of `family` in the registry's text, as lines. */
async function seriesOf(family: string): Promise<string[]> {
  const { body } = await renderMetrics();
  return body.split('\n').filter((line) => line.startsWith(`${family}{`));
}

function countOf(lines: string[], labels: string[]): number {
  const line = lines.find((l) => labels.every((label) => l.includes(label)));
  return line ? Number(line.split(' ').at(-1)) : 0;
}

describe('HTTP metrics middleware', () => {
  let http: Listening;
  let base: string;

  before(async () => {
    const app = express();
    addHealthRoutes(app, {});
    app.get('/checkout/:token', (_req, res) => void res.send('page'));
    app.post('/checkout/:token/pay', (_req, res) => void res.status(303).end());
    const rest = express.Router();
    rest.get('/orders/:orderId/status', (_req, res) => void res.json({}));
    app.use('/payment/rest', rest);
    app.use('/api', (req, res) => {
      // An app that routes by hand names the pattern itself.
      if (req.path.startsWith('/sessions/')) labelRoute(res, '/api/sessions/:id');
      res.status(500).json({});
    });
    app.use((_req, res) => void res.status(404).end());
    http = await listen(app, 0, '127.0.0.1');
    base = `http://127.0.0.1:${http.port}`;
  });

  after(() => http.close());

  it('when routes with ids are called, then requests are counted under the route pattern, never the raw path', async () => {
    const before = await seriesOf('gateway_http_requests_total');
    const token = 'tok_secretvalue42';
    await get(`${base}/checkout/${token}`);
    await get(`${base}/checkout/${token}/pay`, 'POST');
    await get(`${base}/payment/rest/orders/${SESSION_ID}/status`);
    await get(`${base}/api/sessions/${SESSION_ID}?key=sk_test_abc`);

    const after = await seriesOf('gateway_http_requests_total');
    const grew = (labels: string[]) => countOf(after, labels) - countOf(before, labels);
    assert.equal(grew(['route="/checkout/:token"', 'method="GET"', 'status="200"']), 1);
    assert.equal(grew(['route="/checkout/:token/pay"', 'method="POST"', 'status="303"']), 1);
    assert.equal(grew(['route="/payment/rest/orders/:orderId/status"', 'method="GET"', 'status="200"']), 1);
    assert.equal(grew(['route="/api/sessions/:id"', 'method="GET"', 'status="500"']), 1);

    const { body } = await renderMetrics();
    for (const secret of [token, SESSION_ID, 'sk_test_abc']) assert.ok(!body.includes(secret), `${secret} leaked into /metrics`);
  });

  it('when no route matches, then the request is labelled unmatched with its status', async () => {
    const before = await seriesOf('gateway_http_requests_total');
    await get(`${base}/nothing/${SESSION_ID}`);
    await get(`${base}/checkout/a/b/c/d`, 'DELETE');
    const after = await seriesOf('gateway_http_requests_total');
    const grew = (labels: string[]) => countOf(after, labels) - countOf(before, labels);
    assert.equal(grew(['route="unmatched"', 'method="GET"', 'status="404"']), 1);
    assert.equal(grew(['route="unmatched"', 'method="DELETE"', 'status="404"']), 1);
    assert.ok(!after.some((line) => line.includes('/nothing/')));
  });

  it('when a request is answered, then its latency is observed under route and method', async () => {
    await get(`${base}/checkout/xyz`);
    const buckets = await seriesOf('gateway_http_request_duration_seconds_bucket');
    assert.ok(buckets.some((line) => line.includes('route="/checkout/:token"') && line.includes('method="GET"') && line.includes('le="+Inf"')));
  });

  it('when /metrics is scraped from a health app, then it answers Prometheus text without credentials, with default metrics and its own request counted', async () => {
    const health = await listen(healthApp({}), 0, '127.0.0.1');
    try {
      const url = `http://127.0.0.1:${health.port}`;
      assert.equal((await get(`${url}/healthz`)).status, 200);
      const res = await get(`${url}/metrics`);
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
      const text = await res.text();
      assert.match(text, /^# TYPE gateway_http_requests_total counter$/m);
      assert.match(text, /^process_cpu_user_seconds_total /m);
      assert.match(text, /gateway_http_requests_total\{[^}]*route="\/healthz"[^}]*status="200"/);
    } finally {
      await health.close();
    }
  });
});
