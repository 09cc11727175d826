/** The outgoing client against real local HTTP servers: answers, limits, the deadline, keep-alive, errors and D11's guard. */
import { strict as assert } from 'node:assert';
import net from 'node:net';
import { Readable } from 'node:stream';
import { closedPort, RecordingServer, type RecordingHandler } from '@gateway/testkit/recording-server';
import { HttpClient, HttpClientError, type HttpClientOptions } from '../../src/index.js';

async function rejection(promise: Promise<unknown>): Promise<HttpClientError> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof HttpClientError, `an HttpClientError, got ${String(err)}`);
    return err;
  }
  assert.fail('expected a rejection');
}

describe('HttpClient', () => {
  const servers: RecordingServer[] = [];
  const clients: HttpClient[] = [];

  async function server(handler?: RecordingHandler): Promise<RecordingServer> {
    const started = await RecordingServer.start(handler);
    servers.push(started);
    return started;
  }

  function client(options: Partial<HttpClientOptions> = {}): HttpClient {
    const created = new HttpClient({ connectionsPerOrigin: 4, timeoutMs: 2_000, ...options });
    clients.push(created);
    return created;
  }

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await Promise.all(servers.splice(0).map((s) => s.stop()));
  });

  describe('send', () => {
    it('When a request is sent, then the method, path, query, headers and body arrive as given, with the body length', async () => {
      const target = await server((_req, res) => res.writeHead(201, { 'X-Answer': 'yes' }).end('{"done":true}'));
      const body = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
      const answer = await client().send({
        url: target.url('/pay/register.do?x=%20&y=1'),
        method: 'POST',
        headers: { 'Content-Type': 'application/octet-stream', 'X-Trace': 'abc', 'content-length': '3' },
        body,
        maxResponseBytes: 1024,
      });
      assert.deepEqual([answer.statusCode, answer.headers['x-answer'], answer.body.toString(), answer.complete], [201, 'yes', '{"done":true}', true]);
      const [received] = target.requests;
      assert.equal(received?.method, 'POST');
      assert.equal(received?.url, '/pay/register.do?x=%20&y=1');
      assert.ok(received?.body.equals(body));
      const pairs = target.headerPairs();
      assert.deepEqual(pairs.filter(([n]) => n === 'Content-Type' || n === 'X-Trace'), [['Content-Type', 'application/octet-stream'], ['X-Trace', 'abc']]);
      assert.deepEqual(pairs.filter(([n]) => n.toLowerCase() === 'content-length').map(([, v]) => v), ['256']);
      assert.deepEqual(pairs.map(([n]) => n.toLowerCase()).sort(), ['connection', 'content-length', 'content-type', 'host', 'x-trace']);
    });

    it('When the answer is longer than the limit, then only the limit is read, the answer says it is incomplete and the connection is dropped', async () => {
      const target = await server((_req, res) => res.writeHead(200).end(Buffer.alloc(4 * 1024 * 1024, 'x')));
      const http1 = client();
      const answer = await http1.send({ url: target.url(), method: 'GET', maxResponseBytes: 4096 });
      assert.deepEqual([answer.statusCode, answer.body.toString(), answer.complete], [200, 'x'.repeat(4096), false]);
      for (let waited = 0; target.closed === 0 && waited < 2_000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
      assert.ok(target.closed >= 1, 'the connection was dropped');
      const next = await http1.send({ url: target.url(), method: 'GET', maxResponseBytes: 10 });
      assert.deepEqual([next.statusCode, next.body.toString()], [200, 'x'.repeat(10)]);
    });

    it('When two requests go one after the other to one origin, then they share one kept-alive connection', async () => {
      const target = await server();
      const http1 = client();
      for (let i = 0; i < 3; i += 1) assert.equal((await http1.send({ url: target.url(), method: 'POST', body: 'n', maxResponseBytes: 10 })).statusCode, 200);
      assert.equal(target.connections, 1);
    });

    it('When more requests than connectionsPerOrigin run at once, then no more connections than that are opened', async () => {
      const target = await server((_req, res) => setTimeout(() => res.end('ok'), 50));
      const http1 = client({ connectionsPerOrigin: 2 });
      await Promise.all(Array.from({ length: 6 }, () => http1.send({ url: target.url(), method: 'GET', maxResponseBytes: 10 })));
      assert.equal(target.requests.length, 6);
      assert.equal(target.connections, 2);
    });

    it('When the server answers a redirect, then it is the answer: not followed', async () => {
      const elsewhere = await server();
      const target = await server((_req, res) => res.writeHead(302, { Location: elsewhere.url('/x') }).end());
      const answer = await client().send({ url: target.url(), method: 'POST', body: '{}', maxResponseBytes: 100 });
      assert.deepEqual([answer.statusCode, answer.headers['location']], [302, elsewhere.url('/x')]);
      assert.equal(elsewhere.connections, 0);
    });
  });

  describe('failures', () => {
    it('When the server never answers, then the request fails at the deadline, and the client works afterwards', async () => {
      const hanging = await server(() => undefined);
      const ok = await server();
      const http1 = client({ timeoutMs: 300 });
      const started = performance.now();
      const err = await rejection(http1.send({ url: hanging.url(), method: 'POST', body: '{}', maxResponseBytes: 10 }));
      const took = performance.now() - started;
      assert.deepEqual([err.kind, err.message, err.mayHaveReached], ['timeout', 'timed out after 300 ms', true]);
      assert.ok(took >= 290 && took < 1_000, `took ${took}`);
      assert.equal((await http1.send({ url: ok.url(), method: 'GET', maxResponseBytes: 10 })).statusCode, 200);
    });

    it('When a request gives its own deadline, then that one applies', async () => {
      const hanging = await server(() => undefined);
      const err = await rejection(client({ timeoutMs: 5_000 }).send({ url: hanging.url(), method: 'GET', maxResponseBytes: 10, timeoutMs: 150 }));
      assert.equal(err.message, 'timed out after 150 ms');
    });

    it('When the headers come but the body never ends, then the deadline ends it and the error carries the status and what came', async () => {
      const target = await server((_req, res) => {
        res.writeHead(200, { 'Content-Length': '100' });
        res.write('partial');
      });
      const err = await rejection(client({ timeoutMs: 300 }).send({ url: target.url(), method: 'GET', maxResponseBytes: 1000 }));
      assert.equal(err.kind, 'timeout');
      assert.equal(err.answer?.statusCode, 200);
      assert.equal(err.answer?.body.toString(), 'partial');
    });

    it('When nothing listens, then the request failed as a refused connection that never reached the server', async () => {
      const port = await closedPort();
      const err = await rejection(client().send({ url: `http://127.0.0.1:${port}/`, method: 'POST', body: 'x', maxResponseBytes: 10 }));
      assert.deepEqual([err.kind, err.message, err.code, err.mayHaveReached], ['connect', 'connection refused', 'ECONNREFUSED', false]);
    });

    it('When the server closes the connection without answering, then the request failed before a response and may have reached it', async () => {
      const target = await server((req) => req.socket.destroy());
      const err = await rejection(client().send({ url: target.url(), method: 'POST', body: 'x', maxResponseBytes: 10 }));
      assert.deepEqual([err.kind, err.message, err.mayHaveReached], ['closed-before-response', 'connection closed before a response', true]);
    });

    it('When the server drops the connection in the middle of the body, then the request was interrupted with the status kept', async () => {
      const target = await server((req, res) => {
        res.writeHead(200, { 'Content-Length': '100' });
        res.write('half', () => req.socket.destroy());
      });
      const err = await rejection(client().send({ url: target.url(), method: 'GET', maxResponseBytes: 1000 }));
      assert.equal(err.kind, 'interrupted');
      assert.equal(err.answer?.statusCode, 200);
    });

    it('When the URL or a header is bad, or the client is closed, then it fails without sending anything', async () => {
      const http1 = client();
      assert.equal((await rejection(http1.send({ url: 'not a url', method: 'GET', maxResponseBytes: 1 }))).message, 'invalid url');
      assert.equal((await rejection(http1.send({ url: 'ftp://example.com/', method: 'GET', maxResponseBytes: 1 }))).message, 'url must be http or https');
      const bad = await rejection(http1.send({ url: 'http://example.com/', method: 'GET', headers: { 'X-Bad': 'a\r\nInjected: 1' }, maxResponseBytes: 1 }));
      assert.deepEqual([bad.kind, bad.message, bad.mayHaveReached], ['invalid-request', 'invalid request headers', false]);
      await http1.close();
      assert.equal((await rejection(http1.send({ url: 'http://example.com/', method: 'GET', maxResponseBytes: 1 }))).kind, 'client-closed');
    });

    it('When the client is closed while a request waits for its answer, then the request fails as one that may have reached the server (the acquirer may have charged), never as one surely unsent', async () => {
      const hanging = await server(() => undefined);
      const http1 = client();
      const sent = rejection(http1.send({ url: hanging.url('/pay'), method: 'POST', body: 'x', maxResponseBytes: 100 }));
      while (hanging.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      await http1.close();
      const err = await sent;
      assert.equal(err.mayHaveReached, true, `${err.kind} (${String(err.code)}) said not to have reached the server`);
      // A request asked for after close is refused before undici sees it: that one surely never left.
      const after = await rejection(http1.send({ url: hanging.url('/pay'), method: 'POST', body: 'x', maxResponseBytes: 100 }));
      assert.deepEqual([after.kind, after.mayHaveReached], ['client-closed', false]);
    });

    it('When the caller aborts, then the request ends at once as aborted', async () => {
      const hanging = await server(() => undefined);
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 50);
      const err = await rejection(client({ timeoutMs: 5_000 }).send({ url: hanging.url(), method: 'GET', maxResponseBytes: 1, signal: controller.signal }));
      assert.equal(err.kind, 'aborted');
    });

    it('When a request ends, then its deadline timer is cleared', async () => {
      const target = await server();
      const timers = (): number => process.getActiveResourcesInfo().filter((name) => name === 'Timeout').length;
      const before = timers();
      await client({ timeoutMs: 60_000 }).send({ url: target.url(), method: 'GET', maxResponseBytes: 10 });
      assert.equal(timers(), before);
    });
  });

  describe('open (streaming)', () => {
    it('When a request body is a stream and the answer is streamed, then both pass through whole, multi-valued headers kept', async () => {
      const target = await server((_req, res, body) => {
        res.writeHead(200, [['Set-Cookie', 'a=1'], ['Set-Cookie', 'b=2'], ['Content-Type', 'text/plain']]);
        res.write(body);
        setTimeout(() => res.end('|end'), 20);
      });
      const answer = await client().open({ url: target.url('/page?q=1'), method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: Readable.from([Buffer.from('a=1&'), Buffer.from('b=2')]) });
      assert.equal(answer.statusCode, 200);
      assert.deepEqual(answer.headers['set-cookie'], ['a=1', 'b=2']);
      const chunks: Buffer[] = [];
      for await (const chunk of answer.body as AsyncIterable<Buffer>) chunks.push(chunk);
      assert.equal(Buffer.concat(chunks).toString(), 'a=1&b=2|end');
      assert.equal(target.requests[0]?.body.toString(), 'a=1&b=2');
    });

    it('When a request target is given as a path, then it is sent verbatim to the URL origin, and one not starting with / is refused', async () => {
      const target = await server();
      const elsewhere = await server();
      const http1 = client();
      for (const path of ['/a/../b?x=%2F', `//127.0.0.1:${elsewhere.port}/x`]) {
        assert.equal((await http1.open({ url: target.url(), path, method: 'GET' })).statusCode, 200);
      }
      assert.deepEqual(target.requests.map((r) => r.url), ['/a/../b?x=%2F', `//127.0.0.1:${elsewhere.port}/x`]);
      assert.equal(elsewhere.connections, 0);
      const err = await rejection(http1.open({ url: target.url(), path: `http://127.0.0.1:${elsewhere.port}/`, method: 'GET' }));
      assert.deepEqual([err.kind, err.mayHaveReached], ['invalid-request', false]);
    });

    it('When the headers do not come in time, then open fails at the deadline', async () => {
      const hanging = await server(() => undefined);
      assert.equal((await rejection(client({ timeoutMs: 200 }).open({ url: hanging.url(), method: 'GET' }))).kind, 'timeout');
    });
  });

  describe('D11 address guard (refusePrivateAddresses)', () => {
    it('When the host is a forbidden IP literal, then the request is refused without any connection', async () => {
      const target = await server();
      const guarded = client({ refusePrivateAddresses: true });
      for (const [url, address] of [
        [target.url(), '127.0.0.1'],
        [`http://[::1]:${target.port}/`, '::1'],
        ['http://169.254.169.254/latest/meta-data/', '169.254.169.254'],
        [`http://0x7f.1:${target.port}/`, '127.0.0.1'],
      ] as const) {
        const err = await rejection(guarded.send({ url, method: 'POST', body: '{}', maxResponseBytes: 10 }));
        assert.deepEqual([err.kind, err.message, err.mayHaveReached], ['address-not-allowed', `address ${address} is not allowed (private, loopback or link-local)`, false]);
      }
      assert.equal(target.connections, 0);
    });

    it('When a name resolves to a forbidden address, any of several, then the request is refused after DNS without any connection', async () => {
      const target = await server();
      const resolved: string[] = [];
      const guarded = client({
        refusePrivateAddresses: true,
        resolver: async (hostname) => {
          resolved.push(hostname);
          return [{ address: '93.184.216.34', family: 4 }, { address: '127.0.0.1', family: 4 }];
        },
      });
      const err = await rejection(guarded.send({ url: `http://hooks.example.com:${target.port}/`, method: 'POST', body: '{}', maxResponseBytes: 10 }));
      assert.deepEqual([err.kind, err.message], ['address-not-allowed', 'address 127.0.0.1 is not allowed (private, loopback or link-local)']);
      assert.deepEqual(resolved, ['hooks.example.com']);
      const localhost = await rejection(client({ refusePrivateAddresses: true }).send({ url: `http://localhost:${target.port}/`, method: 'GET', maxResponseBytes: 1 }));
      assert.equal(localhost.kind, 'address-not-allowed');
      assert.equal(target.connections, 0);
    });

    it('When the lookup fails, finds nothing or hangs, then the request fails as DNS or at the deadline', async () => {
      const failing = client({ refusePrivateAddresses: true, resolver: () => Promise.reject(new Error('SERVFAIL')) });
      assert.deepEqual(
        [(await rejection(failing.send({ url: 'http://hooks.example.com/', method: 'GET', maxResponseBytes: 1 }))).message],
        ['DNS lookup failed'],
      );
      const empty = client({ refusePrivateAddresses: true, resolver: async () => [] });
      assert.equal((await rejection(empty.send({ url: 'http://hooks.example.com/', method: 'GET', maxResponseBytes: 1 }))).kind, 'dns');
      const hanging = client({ refusePrivateAddresses: true, timeoutMs: 200, resolver: () => new Promise(() => undefined) });
      assert.equal((await rejection(hanging.send({ url: 'http://hooks.example.com/', method: 'GET', maxResponseBytes: 1 }))).message, 'timed out after 200 ms');
    });

    for (const autoSelectFamily of [true, false]) {
      it(`When Node ${autoSelectFamily ? 'asks for all addresses' : 'asks for one address'}, then an injected resolver is used to connect, the Host header naming the URL's host`, async () => {
        const previous = net.getDefaultAutoSelectFamily();
        net.setDefaultAutoSelectFamily(autoSelectFamily);
        try {
          const target = await server();
          const resolver = async () => [{ address: '127.0.0.1', family: 4 }];
          const answer = await client({ resolver }).send({ url: `http://hooks.example.com:${target.port}/`, method: 'GET', maxResponseBytes: 10 });
          assert.equal(answer.statusCode, 200);
          const raw = target.requests[0]?.rawHeaders ?? [];
          assert.equal(raw[raw.findIndex((name) => name.toLowerCase() === 'host') + 1], `hooks.example.com:${target.port}`);
        } finally {
          net.setDefaultAutoSelectFamily(previous);
        }
      });
    }

    it('When private addresses are not refused, then loopback by literal and by localhost is reached', async () => {
      const target = await server();
      const open = client();
      assert.equal((await open.send({ url: target.url(), method: 'GET', maxResponseBytes: 10 })).statusCode, 200);
      assert.equal((await open.send({ url: `http://localhost:${target.port}/`, method: 'GET', maxResponseBytes: 10 })).statusCode, 200);
    });
  });
});
