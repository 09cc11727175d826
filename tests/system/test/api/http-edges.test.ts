/**
 * The gateway's HTTP layer at its edges, against the real system: requests
 * written byte by byte on a socket, as no well-behaved client would send
 * them, held to what the express layer did and to D1 and D10.
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { sessionRequest, TestSystem } from '@gateway/testkit';

/** The answer to `request` written as it is on a fresh connection: status line, headers, body. */
async function rawExchange(port: number, request: Buffer | string): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const text = await new Promise<string>((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let out = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      out += chunk;
      const head = out.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: (\d+)/i.exec(out);
      if (head !== -1 && length && out.length >= head + 4 + Number(length[1])) socket.end();
    });
    socket.on('end', () => resolve(out));
    socket.on('error', reject);
    socket.write(request);
  });
  const [head = '', body = ''] = text.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}

describe('API gateway: HTTP edges', function () {
  this.timeout(120_000);
  let system: TestSystem;
  let port: number;

  before(async () => {
    system = await TestSystem.start();
    port = Number(new URL(system.baseUrl).port);
  });
  after(async () => {
    await system?.shutdown();
  });

  const post = (target: string, key: string, body: Buffer, headers: Record<string, string> = {}) =>
    Buffer.concat([
      Buffer.from(
        [`POST ${target} HTTP/1.1`, 'Host: 127.0.0.1', `Authorization: Bearer ${key}`, `Content-Length: ${body.length}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`), 'Connection: close', '', ''].join('\r\n'),
      ),
      body,
    ]);

  it('when an Idempotency-Key comes with an absolute-form target, a fragment or percent-encoded letters of the route, then its scope is the path alone, as express kept it, and a retry replays', async () => {
    const m = await system.newMerchant({ limits: { account: 1000, create: 1000 } });
    const body = Buffer.from(JSON.stringify(sessionRequest()));
    const forms = ['/api/v1/gateway/sessions/', `http://127.0.0.1:${port}/api/v1/gateway/sessions/`, '/api/v1/gateway/sessions/#again', '/%61pi/v1/gateway/sessi%6Fns'];
    const answers = [];
    for (const target of forms) answers.push(await rawExchange(port, post(target, m.testKey, body, { 'Idempotency-Key': 'edge-key-1', 'Content-Type': 'application/json' })));
    assert.deepEqual(answers.map((a) => a.status), [201, 201, 201, 201], answers.map((a) => a.body).join('\n'));
    assert.deepEqual(answers.slice(1).map((a) => a.headers['idempotent-replayed']), ['true', 'true', 'true']);
    const rows = await system.db.query<{ route: string }>('SELECT route FROM api_gateway.idempotency_keys WHERE merchant_id = $1', [m.merchantId]);
    assert.deepEqual(rows.map((r) => r.route), ['POST /gateway/sessions']);
  });

  it('when a body declares a charset other than UTF-8, then it is refused as not JSON (422) rather than stored with its letters replaced; a UTF-8 BOM is taken', async () => {
    const m = await system.newMerchant({ limits: { account: 1000, create: 1000 } });
    const latin1 = Buffer.from(JSON.stringify(sessionRequest({ description: 'Café' })), 'latin1');
    const refused = await rawExchange(port, post('/api/v1/gateway/sessions/', m.testKey, latin1, { 'Content-Type': 'application/json; charset=ISO-8859-1' }));
    assert.equal(refused.status, 422, refused.body);
    assert.deepEqual((JSON.parse(refused.body) as { errors: { field: string }[] }).errors.map((e) => e.field), ['body']);
    const rows = await system.db.query<{ n: number }>('SELECT count(*)::int AS n FROM session.sessions WHERE merchant_id = $1', [m.merchantId]);
    assert.equal(rows[0]?.n, 0);

    const utf8 = Buffer.from(`\ufeff${JSON.stringify(sessionRequest({ description: 'Café' }))}`);
    const declared = await rawExchange(port, post('/api/v1/gateway/sessions/', m.testKey, utf8, { 'Content-Type': 'application/json; charset="UTF-8"' }));
    assert.equal(declared.status, 201, declared.body);
    assert.equal((JSON.parse(declared.body) as { description: string }).description, 'Café');
  });

  it('when a known path is asked with a method fastify does not route by default (PROPFIND, LOCK), then 405 with Allow, as any other wrong method', async () => {
    for (const method of ['PROPFIND', 'LOCK', 'MKCOL']) {
      const res = await rawExchange(port, `${method} /api/v1/gateway/sessions/ps_x/ HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
      assert.equal(res.status, 405, `${method}: ${res.body}`);
      assert.equal(res.headers['allow'], 'GET');
      assert.ok(res.headers['x-request-id']);
    }
  });
});
