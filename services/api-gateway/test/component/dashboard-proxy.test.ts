/**
 * The gateway's /dashboard/ and /ops/ pass-through to the dashboard service
 * (D14, D15), with a small local HTTP server standing in for it: what a
 * browser sends and gets (cookies, Set-Cookie, redirects, form bodies) passes
 * both ways, the client's address and scheme are told, a dead upstream is a
 * 502 page, and without DASHBOARD_UPSTREAM_URL the paths are unknown routes.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TestSystem } from '@gateway/testkit';

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

describe('Gateway /dashboard/ and /ops/ pass-through', function () {
  this.timeout(120_000);
  let system: TestSystem;
  let upstream: Server;
  let upstreamOrigin: string;
  const seen: Seen[] = [];
  /** Ends the streamed page the upstream holds open (see the streaming test). */
  let endStream: () => void = () => undefined;

  before(async () => {
    upstream = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        if (req.method === 'POST' && req.url === '/dashboard/login') {
          // Spelled with the upstream's own origin, as a framework behind a proxy may: the browser must be sent to the gateway's.
          res.writeHead(303, { location: `${upstreamOrigin}/dashboard/payments?mode=test`, 'set-cookie': 'sid=s3ss10n; Path=/; HttpOnly; SameSite=Lax' });
          res.end();
        } else if (req.url === '/dashboard/export') {
          // A long answer: its first part is sent at once, the rest only when the test says.
          res.writeHead(200, { 'content-type': 'text/csv' });
          res.write('id,amount\n');
          endStream = () => res.end('ses_1,12.500\n');
        } else if (req.url?.startsWith('/ops')) {
          res.writeHead(302, { location: '/ops/merchants' });
          res.end();
        } else {
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'set-cookie': ['csrf=t0k3n; Path=/; SameSite=Lax', 'lang=fr; Path=/'] });
          res.end('<!doctype html><title>Sign in</title>');
        }
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    upstreamOrigin = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    // Behind a trusted ingress, as deployed (k8s sets TRUST_PROXY).
    system = await TestSystem.start({
      services: ['api-gateway'],
      serviceEnv: { 'api-gateway': { DASHBOARD_UPSTREAM_URL: upstreamOrigin, TRUST_PROXY: 'true' } },
      readyTimeoutMs: 60_000,
    });
  });

  after(async () => {
    await system?.shutdown();
    upstream?.closeAllConnections();
    await new Promise((resolve) => upstream?.close(resolve));
  });

  function last(): Seen {
    const request = seen.at(-1);
    assert.ok(request, 'the upstream saw no request');
    return request;
  }

  it('when a browser asks for a dashboard page with its cookies, then the upstream gets them, the client address our ingress appended (not one the client wrote) and the scheme, and every Set-Cookie comes back', async () => {
    const res = await fetch(`${system.baseUrl}/dashboard/login?next=%2Fdashboard%2F`, {
      headers: { cookie: 'sid=old; lang=en', 'x-forwarded-for': '192.0.2.66, 198.51.100.7', 'x-forwarded-proto': 'https' },
    });
    assert.equal(res.status, 200);
    assert.equal(await res.text(), '<!doctype html><title>Sign in</title>');
    assert.deepEqual(res.headers.getSetCookie(), ['csrf=t0k3n; Path=/; SameSite=Lax', 'lang=fr; Path=/']);
    const request = last();
    assert.deepEqual([request.method, request.url], ['GET', '/dashboard/login?next=%2Fdashboard%2F']);
    assert.equal(request.headers.cookie, 'sid=old; lang=en');
    assert.equal(request.headers['x-forwarded-for'], '198.51.100.7, 127.0.0.1');
    assert.equal(request.headers['x-forwarded-proto'], 'https');
    assert.equal(request.headers.host, new URL(system.baseUrl).host);
    // The page's work goes on under the gateway's request id.
    assert.equal(request.headers['x-request-id'], res.headers.get('x-request-id'));
    assert.match(String(request.headers['x-request-id']), /^[0-9a-f-]{36}$/);
  });

  it('when a sign-in form is posted, then the body reaches the upstream unchanged and its redirect and session cookie come back, pointing at the gateway', async () => {
    const form = 'email=owner%40shop.example&password=correct+horse+battery&csrf=t0k3n';
    const res = await fetch(`${system.baseUrl}/dashboard/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: 'csrf=t0k3n' },
      body: form,
      redirect: 'manual',
    });
    assert.equal(res.status, 303);
    assert.equal(res.headers.get('location'), '/dashboard/payments?mode=test');
    assert.deepEqual(res.headers.getSetCookie(), ['sid=s3ss10n; Path=/; HttpOnly; SameSite=Lax']);
    const request = last();
    assert.deepEqual([request.method, request.body, request.headers['content-type'], request.headers.cookie], ['POST', form, 'application/x-www-form-urlencoded', 'csrf=t0k3n']);
  });

  it('when the upstream sends its answer in parts, then the browser gets the first part before the upstream has finished', async () => {
    const res = await fetch(`${system.baseUrl}/dashboard/export`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/csv');
    const reader = res.body!.getReader();
    const first = await reader.read();
    assert.equal(new TextDecoder().decode(first.value), 'id,amount\n');
    endStream();
    let rest = '';
    for (let part = await reader.read(); !part.done; part = await reader.read()) rest += new TextDecoder().decode(part.value);
    assert.equal(rest, 'ses_1,12.500\n');
  });

  it('when the operations console is asked for, then it goes to the same upstream and its relative redirect passes as it is', async () => {
    const res = await fetch(`${system.baseUrl}/ops/`, { redirect: 'manual' });
    assert.equal(res.status, 302);
    assert.equal(res.headers.get('location'), '/ops/merchants');
    assert.equal(last().url, '/ops/');
    // Only whole path segments: /dashboardx is no dashboard page.
    const before = seen.length;
    assert.equal((await fetch(`${system.baseUrl}/dashboardx`)).status, 404);
    assert.equal(seen.length, before);
  });

  it('when the gateway is the edge (no trusted proxy), then the forwarded headers a client made up are replaced by what the gateway saw', async () => {
    const port = await system.startService('api-gateway', 'api-gateway-edge', { TRUST_PROXY: 'false' });
    const res = await fetch(`http://127.0.0.1:${port}/dashboard/`, { headers: { 'x-forwarded-for': '198.51.100.7', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'evil.example' } });
    assert.equal(res.status, 200);
    const request = last();
    assert.deepEqual(
      [request.headers['x-forwarded-for'], request.headers['x-forwarded-proto'], request.headers['x-forwarded-host']],
      ['127.0.0.1', 'http', `127.0.0.1:${port}`],
    );
    await system.stopService('api-gateway-edge');
  });

  it('when no DASHBOARD_UPSTREAM_URL is set, then /dashboard/ and /ops/ are 404 problems like any unknown route', async () => {
    const port = await system.startService('api-gateway', 'api-gateway-alone', { DASHBOARD_UPSTREAM_URL: '' });
    const before = seen.length;
    for (const path of ['/dashboard/', '/ops/merchants']) {
      const res = await fetch(`http://127.0.0.1:${port}${path}`);
      assert.equal(res.status, 404, path);
      assert.equal(res.headers.get('content-type'), 'application/problem+json; charset=utf-8');
    }
    assert.equal(seen.length, before, 'nothing reached the upstream');
    await system.stopService('api-gateway-alone');
  });

  it('when the dashboard service does not answer, then the browser gets a 502 page that is not cached and says nothing of the failure', async () => {
    upstream.closeAllConnections();
    await new Promise((resolve) => upstream.close(resolve));
    const res = await fetch(`${system.baseUrl}/dashboard/payments`);
    assert.equal(res.status, 502);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.equal(res.headers.get('content-security-policy'), "default-src 'none'; frame-ancestors 'none'");
    const page = await res.text();
    assert.match(page, /The dashboard is unavailable/);
    assert.doesNotMatch(page, /ECONNREFUSED|127\.0\.0\.1/);
  });
});
