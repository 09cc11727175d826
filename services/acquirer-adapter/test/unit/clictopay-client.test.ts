/** The ClicToPay client's transport against a local server: one kept-alive connection, the deadline and what each failure says. */
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { AcquirerUnreachable } from '../../src/acquirer/acquirer.js';
import { ClicToPayClient } from '../../src/acquirer/clictopay/clictopay.client.js';

type Answer = (req: IncomingMessage, res: ServerResponse) => void;

describe('ClicToPay client transport', () => {
  let server: Server;
  let answer: Answer = () => undefined;
  let connections = 0;
  let baseUrl = '';
  const clients: ClicToPayClient[] = [];

  const client = (timeoutMs = 2_000): ClicToPayClient => {
    const created = new ClicToPayClient(timeoutMs);
    clients.push(created);
    return created;
  };
  const terminal = () => ({ baseUrl, userName: 'merchant-api', password: 'not-logged' });

  async function unreachable(call: Promise<unknown>): Promise<AcquirerUnreachable> {
    try {
      await call;
    } catch (err) {
      assert.ok(err instanceof AcquirerUnreachable, String(err));
      return err;
    }
    assert.fail('expected AcquirerUnreachable');
  }

  before(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => answer(req, res));
    });
    server.on('connection', () => {
      connections += 1;
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/payment/rest/`;
  });

  beforeEach(() => {
    connections = 0;
  });

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    server.closeAllConnections();
  });

  after(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('when a payment makes its calls one after another, then they go over one kept-alive connection', async () => {
    answer = (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ errorCode: '0', orderStatus: 0 }));
    const acquirer = client();
    for (let i = 0; i < 3; i += 1) await acquirer.status(terminal(), { reference: 'b7e1c0de-0000-4000-8000-000000000001', orderNumber: 'ORD-1' });
    assert.equal(connections, 1);
  });

  it('when the acquirer does not answer in time, then the call fails as timed out, maybe delivered', async () => {
    answer = () => undefined;
    const err = await unreachable(client(200).status(terminal(), { reference: 'b7e1c0de-0000-4000-8000-000000000001', orderNumber: 'ORD-1' }));
    assert.deepEqual([err.reason, err.maybeDelivered], ['timed out', true]);
  });

  it('when nothing listens, then the call fails as a refused connection, surely not delivered', async () => {
    const closed = createNetServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const err = await unreachable(client().status({ ...terminal(), baseUrl: `http://127.0.0.1:${port}/` }, { reference: 'b7e1c0de-0000-4000-8000-000000000001', orderNumber: 'ORD-1' }));
    assert.deepEqual([err.reason, err.maybeDelivered], ['connection failed (ECONNREFUSED)', false]);
  });

  it('when the answer is not a small JSON object in a 200, then the call fails saying which, never quoting it', async () => {
    const cases: [Answer, string][] = [
      [(_req, res) => res.writeHead(500).end('{"errorCode":"0"}'), 'HTTP 500'],
      [(_req, res) => res.writeHead(200).end('<html>4242424242424242</html>'), 'unreadable answer'],
      [(_req, res) => res.writeHead(200).end('[1]'), 'unreadable answer'],
      [(_req, res) => res.writeHead(200).end(Buffer.alloc(200 * 1024, ' ')), 'answer too large'],
      [(req) => req.socket.destroy(), 'connection failed (UND_ERR_SOCKET)'],
    ];
    for (const [respond, reason] of cases) {
      answer = respond;
      const err = await unreachable(client().status(terminal(), { reference: 'b7e1c0de-0000-4000-8000-000000000001', orderNumber: 'ORD-1' }));
      assert.deepEqual([err.reason, err.maybeDelivered], [reason, true]);
      assert.ok(!err.message.includes('4242'));
    }
  });
});
