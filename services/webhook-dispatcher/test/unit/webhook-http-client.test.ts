/** One webhook attempt over real local HTTP servers: outcomes, the timeout, D11's address rule and no redirects. */
import { strict as assert } from 'node:assert';
import net from 'node:net';
import { closedPort, RecordingServer, type RecordingHandler } from '@gateway/testkit/recording-server';
import { WebhookHttpClient, type DeliveryOutcome, type WebhookHttpClientOptions } from '../../src/delivery/webhook-http-client.js';

const json = (value: unknown): Buffer => Buffer.from(JSON.stringify(value));
const NOT_ALLOWED = /^address \S+ is not allowed \(private, loopback or link-local\)$/;

describe('WebhookHttpClient', () => {
  const merchants: RecordingServer[] = [];
  const clients: WebhookHttpClient[] = [];

  /** A merchant's endpoint on 127.0.0.1 that records what reached it. */
  async function merchant(handler?: RecordingHandler): Promise<RecordingServer> {
    const started = await RecordingServer.start(handler);
    merchants.push(started);
    return started;
  }

  function client(options: Partial<WebhookHttpClientOptions> = {}): WebhookHttpClient {
    const created = new WebhookHttpClient({ timeoutMs: 2_000, allowPrivate: true, maxSocketsPerHost: 4, ...options });
    clients.push(created);
    return created;
  }

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((created) => created.close()));
    await Promise.all(merchants.splice(0).map((started) => started.stop()));
  });

  function assertFailed(outcome: DeliveryOutcome, error: string | RegExp, statusCode?: number): void {
    assert.equal(outcome.ok, false);
    if (typeof error === 'string') assert.equal(outcome.error, error);
    else assert.match(outcome.error ?? '', error);
    assert.equal(outcome.statusCode, statusCode);
    assert.ok(Number.isInteger(outcome.responseTimeMs) && outcome.responseTimeMs >= 0, `responseTimeMs ${outcome.responseTimeMs}`);
  }

  describe('outcomes', () => {
    it('When the merchant answers 2xx, then the attempt is ok with the status code and an integer response time', async () => {
      for (const status of [200, 201, 202, 204]) {
        const endpoint = await merchant((_req, res) => res.writeHead(status).end(status === 204 ? undefined : 'thanks'));
        const outcome = await client().post({ url: endpoint.url('/hooks'), body: json({ id: 'evt_1' }), headers: { 'Content-Type': 'application/json' } });
        assert.equal(outcome.ok, true, `status ${status}`);
        assert.equal(outcome.statusCode, status);
        assert.equal(outcome.error, undefined);
        assert.ok(Number.isInteger(outcome.responseTimeMs) && outcome.responseTimeMs >= 0 && outcome.responseTimeMs < 2_000);
        assert.equal(endpoint.requests.length, 1);
      }
    });

    it('When the merchant answers 500 or 4xx, then the attempt failed with the status code', async () => {
      for (const status of [500, 503, 400, 404]) {
        const endpoint = await merchant((_req, res) => res.writeHead(status).end('nope'));
        assertFailed(await client().post({ url: endpoint.url('/hooks'), body: json({}), headers: {} }), `HTTP ${status}`, status);
      }
    });

    it('When the merchant never answers, then the attempt fails at the timeout and the client still works afterwards', async () => {
      const hanging = await merchant(() => undefined);
      const ok = await merchant();
      const webhooks = client({ timeoutMs: 300 });
      const outcome = await webhooks.post({ url: hanging.url('/hooks'), body: json({}), headers: {} });
      assertFailed(outcome, 'timed out after 300 ms');
      assert.ok(outcome.responseTimeMs >= 290 && outcome.responseTimeMs < 1_000, `responseTimeMs ${outcome.responseTimeMs}`);
      assert.equal(hanging.requests.length, 1);
      const after = await webhooks.post({ url: ok.url('/hooks'), body: json({}), headers: {} });
      assert.equal(after.ok, true);
      const again = await webhooks.post({ url: hanging.url('/hooks'), body: json({}), headers: {} });
      assertFailed(again, 'timed out after 300 ms');
    });

    it('When the merchant sends its headers but never ends the body, then the attempt fails at the timeout with the status code', async () => {
      const endpoint = await merchant((_req, res) => {
        res.writeHead(200, { 'Content-Length': '100' });
        res.write('partial');
      });
      const outcome = await client({ timeoutMs: 300 }).post({ url: endpoint.url('/hooks'), body: json({}), headers: {} });
      assertFailed(outcome, 'timed out after 300 ms', 200);
    });

    it('When nothing listens on the port, then the attempt failed with "connection refused"', async () => {
      const port = await closedPort();
      assertFailed(await client().post({ url: `http://127.0.0.1:${port}/hooks`, body: json({}), headers: {} }), 'connection refused');
    });

    it('When the merchant closes the connection without answering, then the attempt failed', async () => {
      const endpoint = await merchant((req) => req.socket.destroy());
      assertFailed(await client().post({ url: endpoint.url('/hooks'), body: json({}), headers: {} }), 'connection closed before a response');
    });

    it('When the merchant answers with a large body, then it is not read to the end and the attempt is ok', async () => {
      const endpoint = await merchant((_req, res) => res.writeHead(200).end(Buffer.alloc(4 * 1024 * 1024, 'x')));
      const outcome = await client().post({ url: endpoint.url('/hooks'), body: json({}), headers: {} });
      assert.equal(outcome.ok, true);
      assert.equal(outcome.statusCode, 200);
    });

    it('When the merchant answers, then the start of its body is kept as text, 4 KiB at most, whatever the status', async () => {
      const large = await merchant((_req, res) => res.writeHead(200).end(Buffer.alloc(4 * 1024 * 1024, 'x')));
      assert.equal((await client().post({ url: large.url('/hooks'), body: json({}), headers: {} })).responseBody, 'x'.repeat(4096));
      const refusing = await merchant((_req, res) => res.writeHead(500, { 'Content-Type': 'text/html' }).end('<h1>down</h1>'));
      const failed = await client().post({ url: refusing.url('/hooks'), body: json({}), headers: {} });
      assert.deepEqual([failed.ok, failed.responseBody], [false, '<h1>down</h1>']);
      const empty = await merchant((_req, res) => res.writeHead(204).end());
      assert.equal((await client().post({ url: empty.url('/hooks'), body: json({}), headers: {} })).responseBody, '');
    });

    it('When the kept body holds NUL, bytes that are not UTF-8 or a character cut by the limit, then it is still text PostgreSQL stores', async () => {
      const odd = Buffer.concat([Buffer.from('a\u0000b', 'utf8'), Buffer.from([0xff]), Buffer.from('c'.repeat(4091)), Buffer.from('é', 'utf8')]);
      assert.equal(odd.length, 4097);
      const endpoint = await merchant((_req, res) => res.writeHead(200).end(odd));
      const kept = (await client().post({ url: endpoint.url('/hooks'), body: json({}), headers: {} })).responseBody;
      // The é straddles byte 4096: left out, not turned into a replacement character.
      assert.equal(kept, `a\uFFFDb\uFFFD${'c'.repeat(4091)}`);
    });

    it('When no response arrives, then no body is kept', async () => {
      const port = await closedPort();
      assert.equal((await client().post({ url: `http://127.0.0.1:${port}/hooks`, body: json({}), headers: {} })).responseBody, undefined);
    });

    it('When the URL is not an http(s) URL or the client is closed, then post resolves a failure instead of throwing', async () => {
      const webhooks = client();
      assertFailed(await webhooks.post({ url: 'not a url', body: json({}), headers: {} }), 'invalid url');
      assertFailed(await webhooks.post({ url: 'ftp://hooks.example.com/', body: json({}), headers: {} }), 'url must be http or https');
      assertFailed(await webhooks.post({ url: 'http://hooks.example.com/', body: json({}), headers: { 'X-Bad': 'a\r\nInjected: 1' } }), 'invalid request headers');
      webhooks.close();
      assertFailed(await webhooks.post({ url: 'http://hooks.example.com/', body: json({}), headers: {} }), 'client closed');
    });

    it('When an attempt ends, then its timer is cleared', async () => {
      const endpoint = await merchant();
      const timers = (): number => process.getActiveResourcesInfo().filter((name) => name === 'Timeout').length;
      const before = timers();
      const outcome = await client({ timeoutMs: 60_000 }).post({ url: endpoint.url('/hooks'), body: json({}), headers: {} });
      assert.equal(outcome.ok, true);
      assert.equal(timers(), before);
    });
  });

  describe('what is sent', () => {
    it('When a webhook is posted, then the headers and body arrive byte-exact with Content-Length and nothing else added but Host and Connection', async () => {
      // The merchant's headers keep their case; the three the client adds are spelled by it (lower case, as HTTP allows).
      const endpoint = await merchant();
      const body = Buffer.concat([json({ id: 'evt_1', name: 'Dar Zitouna – café' }), Buffer.from(Array.from({ length: 256 }, (_, i) => i))]);
      const headers = {
        'Content-Type': 'application/json',
        'User-Agent': 'Gateway-Webhooks/1.0',
        'X-Service-Signature': 't=1795860000,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd',
        'X-Service-Webhook-Id': 'evt_1',
        'X-Service-Event': 'payment.succeeded',
      };
      const outcome = await client().post({ url: endpoint.url('/hooks/in?source=gateway&x=%20'), body, headers });
      assert.equal(outcome.ok, true);
      const [received] = endpoint.requests;
      assert.ok(received);
      assert.equal(received.method, 'POST');
      assert.equal(received.url, '/hooks/in?source=gateway&x=%20');
      assert.ok(received.body.equals(body), 'body byte-exact');
      const pairs = endpoint.headerPairs();
      for (const [name, value] of Object.entries(headers)) assert.deepEqual(pairs.filter(([n]) => n === name), [[name, value]], name);
      assert.deepEqual(pairs.filter(([n]) => n.toLowerCase() === 'content-length').map(([, v]) => v), [String(body.length)]);
      const added = pairs.map(([n]) => n).filter((n) => !(n in headers) && n.toLowerCase() !== 'content-length');
      assert.deepEqual(added.map((n) => n.toLowerCase()).sort(), ['connection', 'host']);
    });

    it('When the caller passes its own Content-Length, then the length of the body is sent instead', async () => {
      const endpoint = await merchant();
      await client().post({ url: endpoint.url('/hooks'), body: Buffer.from('{"a":1}'), headers: { 'content-length': '2' } });
      const [received] = endpoint.requests;
      assert.equal(received?.body.toString(), '{"a":1}');
      const lengths = (received?.rawHeaders ?? []).filter((_, i, all) => i % 2 === 1 && all[i - 1]?.toLowerCase() === 'content-length');
      assert.deepEqual(lengths, ['7']);
    });

    it('When two webhooks are posted one after the other, then they share one keep-alive connection', async () => {
      const endpoint = await merchant();
      const webhooks = client();
      assert.equal((await webhooks.post({ url: endpoint.url('/hooks'), body: json({ n: 1 }), headers: {} })).ok, true);
      assert.equal((await webhooks.post({ url: endpoint.url('/hooks'), body: json({ n: 2 }), headers: {} })).ok, true);
      assert.equal(endpoint.requests.length, 2);
      assert.equal(endpoint.connections, 1);
    });
  });

  describe('redirects', () => {
    it('When the merchant answers 302 to another server, then the attempt failed with the status and the redirect is not followed', async () => {
      const target = await merchant();
      for (const status of [301, 302, 307, 308]) {
        const redirecting = await merchant((_req, res) => res.writeHead(status, { Location: target.url('/elsewhere') }).end());
        assertFailed(await client().post({ url: redirecting.url('/hooks'), body: json({}), headers: {} }), `redirect (${status}) not followed`, status);
        assert.equal(redirecting.requests.length, 1);
      }
      assert.equal(target.connections, 0);
      assert.equal(target.requests.length, 0);
    });

    it('When private addresses are not allowed, then a redirecting loopback server is refused before any request', async () => {
      const target = await merchant();
      const redirecting = await merchant((_req, res) => res.writeHead(302, { Location: target.url('/hooks') }).end());
      assertFailed(await client({ allowPrivate: false }).post({ url: redirecting.url('/hooks'), body: json({}), headers: {} }), NOT_ALLOWED);
      assert.equal(redirecting.connections, 0);
      assert.equal(target.connections, 0);
    });
  });

  describe('D11 address rule at connect time', () => {
    it('When the URL host is a forbidden IP literal, then the attempt is refused without any connection', async () => {
      const endpoint = await merchant();
      const webhooks = client({ allowPrivate: false });
      const cases: [string, string][] = [
        [`http://127.0.0.1:${endpoint.port}/hooks`, '127.0.0.1'],
        [`http://[::1]:${endpoint.port}/hooks`, '::1'],
        [`http://[::ffff:127.0.0.1]:${endpoint.port}/hooks`, '::ffff:7f00:1'],
        ['http://169.254.169.254/latest/meta-data/', '169.254.169.254'],
        ['http://10.0.0.1/', '10.0.0.1'],
        ['https://[fd00:ec2::254]/', 'fd00:ec2::254'],
        [`http://0x7f.1:${endpoint.port}/`, '127.0.0.1'],
      ];
      for (const [url, address] of cases) {
        const outcome = await webhooks.post({ url, body: json({}), headers: {} });
        assertFailed(outcome, `address ${address} is not allowed (private, loopback or link-local)`);
        assert.ok(outcome.responseTimeMs < 100, url);
      }
      assert.equal(endpoint.connections, 0);
    });

    it('When the host name localhost resolves to loopback, then the attempt is refused after DNS without any connection', async () => {
      const endpoint = await merchant();
      const outcome = await client({ allowPrivate: false }).post({ url: `http://localhost:${endpoint.port}/hooks`, body: json({}), headers: {} });
      assertFailed(outcome, NOT_ALLOWED);
      assert.equal(endpoint.connections, 0);
    });

    it('When an injected lookup resolves the name to 127.0.0.1, or any of its addresses is private, then the attempt is refused', async () => {
      const endpoint = await merchant();
      const resolved: string[] = [];
      const loopback = client({
        allowPrivate: false,
        lookup: async (hostname) => {
          resolved.push(hostname);
          return [{ address: '127.0.0.1', family: 4 }];
        },
      });
      assertFailed(await loopback.post({ url: `http://hooks.example.com:${endpoint.port}/hooks`, body: json({}), headers: {} }), 'address 127.0.0.1 is not allowed (private, loopback or link-local)');
      assert.deepEqual(resolved, ['hooks.example.com']);
      const mixed = client({
        allowPrivate: false,
        lookup: async () => [{ address: '93.184.216.34', family: 4 }, { address: '::ffff:10.0.0.1', family: 6 }],
      });
      assertFailed(await mixed.post({ url: 'http://hooks.example.com/hooks', body: json({}), headers: {} }), 'address ::ffff:10.0.0.1 is not allowed (private, loopback or link-local)');
      assert.equal(endpoint.connections, 0);
    });

    it('When the lookup fails or finds no address, then the attempt failed with "DNS lookup failed"', async () => {
      const failing = client({ allowPrivate: false, lookup: () => Promise.reject(new Error('SERVFAIL')) });
      assertFailed(await failing.post({ url: 'http://hooks.example.com/', body: json({}), headers: {} }), 'DNS lookup failed');
      const empty = client({ allowPrivate: false, lookup: async () => [] });
      assertFailed(await empty.post({ url: 'http://hooks.example.com/', body: json({}), headers: {} }), 'DNS lookup failed');
    });

    it('When the lookup hangs, then the timeout still bounds the attempt', async () => {
      const hanging = client({ allowPrivate: false, timeoutMs: 200, lookup: () => new Promise(() => undefined) });
      assertFailed(await hanging.post({ url: 'http://hooks.example.com/', body: json({}), headers: {} }), 'timed out after 200 ms');
    });

    for (const autoSelectFamily of [true, false]) {
      it(`When Node ${autoSelectFamily ? 'asks for all addresses' : 'asks for one address'}, then the injected lookup is used to connect and still refuses private addresses`, async () => {
        const previous = net.getDefaultAutoSelectFamily();
        net.setDefaultAutoSelectFamily(autoSelectFamily);
        try {
          const endpoint = await merchant();
          const lookup = async () => [{ address: '127.0.0.1', family: 4 }];
          const allowed = await client({ allowPrivate: true, lookup }).post({ url: `http://hooks.example.com:${endpoint.port}/hooks`, body: json({}), headers: {} });
          assert.equal(allowed.ok, true, allowed.error);
          const hostHeader = endpoint.requests[0]?.rawHeaders.findIndex((name) => name.toLowerCase() === 'host') ?? -1;
          assert.equal(endpoint.requests[0]?.rawHeaders[hostHeader + 1], `hooks.example.com:${endpoint.port}`);
          const refused = await client({ allowPrivate: false, lookup }).post({ url: `http://hooks.example.com:${endpoint.port}/hooks`, body: json({}), headers: {} });
          assertFailed(refused, 'address 127.0.0.1 is not allowed (private, loopback or link-local)');
          assert.equal(endpoint.connections, 1);
        } finally {
          net.setDefaultAutoSelectFamily(previous);
        }
      });
    }

    it('When private addresses are allowed, then loopback by IP literal and by localhost is delivered', async () => {
      const endpoint = await merchant();
      const webhooks = client({ allowPrivate: true });
      assert.equal((await webhooks.post({ url: endpoint.url('/hooks'), body: json({}), headers: {} })).ok, true);
      assert.equal((await webhooks.post({ url: `http://localhost:${endpoint.port}/hooks`, body: json({}), headers: {} })).ok, true);
      assert.equal(endpoint.requests.length, 2);
    });
  });
});
