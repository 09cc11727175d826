import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { healthApp, listen } from '../../src/index.js';

/** A request on a connection of its own, closed after the answer: the server's close then waits for no idle keep-alive connection. */
const get = (url: string, method = 'GET') => fetch(url, { method, headers: { connection: 'close' } });

describe('where a service listens', () => {
  it('when a binding names loopback, then the port listens on 127.0.0.1 alone; by default on every interface', async () => {
    const loopback = await listen(healthApp({}), { port: 0, listenHost: '127.0.0.1' });
    const everywhere = await listen(healthApp({}), 0);
    try {
      assert.equal((loopback.server.address() as AddressInfo).address, '127.0.0.1');
      assert.equal((everywhere.server.address() as AddressInfo).address, '0.0.0.0');
      assert.equal(loopback.metricsPort, undefined);
      assert.equal((await get(`http://127.0.0.1:${loopback.port}/metrics`)).status, 200, 'metrics beside the routes when they have no port of their own');
    } finally {
      await Promise.all([loopback.close(), everywhere.close()]);
    }
  });

  it('when a binding gives a metrics port, then /metrics answers there, on loopback, and no longer on the service port, whose other routes still answer', async () => {
    const http = await listen(healthApp({}), { port: 0, listenHost: '127.0.0.1', metricsPort: 0 });
    try {
      assert.ok(http.metricsPort !== undefined && http.metricsPort !== http.port);
      const scraped = await get(`http://127.0.0.1:${http.metricsPort}/metrics`);
      assert.equal(scraped.status, 200);
      assert.match(await scraped.text(), /^# TYPE gateway_http_requests_total counter$/m);
      assert.equal((await get(`http://127.0.0.1:${http.port}/metrics`)).status, 404);
      assert.equal((await get(`http://127.0.0.1:${http.port}/healthz`)).status, 200);
      assert.equal((await get(`http://127.0.0.1:${http.metricsPort}/healthz`)).status, 404, 'the metrics port serves metrics only');
    } finally {
      await http.close();
    }
    await assert.rejects(get(`http://127.0.0.1:${http.metricsPort}/metrics`), 'the metrics port closes with the service');
  });
});
