/**
 * The adapter's connections to the acquirer against its slow lane: every slow
 * command a replica takes at once (SLOW_COMMAND_PREFETCH) must find a
 * connection, or its acquirer call waits for one inside the client while its
 * deadline runs, and times out without ever being sent.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ClicToPayClient } from '../../src/acquirer/clictopay/clictopay.client.js';
import { loadAdapterConfig } from '../../src/config.js';
import { acquirerConnections } from '../../src/service.js';

const REQUIRED = {
  DATABASE_URL: 'postgres://adapter@127.0.0.1/gateway',
  CARD_DECRYPTION_KEY: '{}',
  SECRETS_KEK: Buffer.alloc(32).toString('base64'),
  // RFC 8037's example Ed25519 public key.
  OPERATOR_PUBLIC_KEYS: '{"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo","kid":"op"}',
};

describe('Connections to the acquirer', () => {
  let server: Server;
  let baseUrl = '';
  let seen = 0;
  const ANSWER_AFTER_MS = 600;

  before(async () => {
    // A slow acquirer: every call is answered (a paid order) after 600 ms.
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        seen += 1;
        setTimeout(() => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ errorCode: '0', orderStatus: 2, amount: 1000, paymentAmountInfo: { depositedAmount: 1000 } }));
        }, ANSWER_AFTER_MS);
      });
    });
    server.maxConnections = 1_000;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', 1_000, resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/payment/rest/`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('when as many slow calls are in flight as the slow lane takes at once, then each reaches the acquirer at once and none times out waiting for a connection', async () => {
    const config = loadAdapterConfig({ ...REQUIRED, SLOW_COMMAND_PREFETCH: '200' });
    assert.ok(acquirerConnections(config) >= config.slowCommandPrefetch);
    // A deadline of one and a half answers: a call that waited for another's connection first misses it.
    const client = new ClicToPayClient(ANSWER_AFTER_MS * 1.5, acquirerConnections(config));
    try {
      const terminal = { baseUrl, userName: 'merchant-api', password: 'not-logged' };
      const calls = await Promise.allSettled(Array.from({ length: config.slowCommandPrefetch }, (_, i) => client.status(terminal, { reference: `order-${i}`, orderNumber: `ORD-${i}` })));
      const failed = calls.filter((c) => c.status === 'rejected').map((c) => String((c as PromiseRejectedResult).reason));
      assert.deepEqual(failed.slice(0, 3), [], `${failed.length} of ${calls.length} calls failed`);
      assert.equal(seen, config.slowCommandPrefetch);
    } finally {
      await client.close();
    }
  });
});
