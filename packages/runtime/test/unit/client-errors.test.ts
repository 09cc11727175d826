import assert from 'node:assert/strict';
import net from 'node:net';
import { listen, type Listening } from '../../src/index.js';

/** What the server writes back to `request` sent as it is, until it closes the connection. */
function exchange(port: number, request: string, then?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let out = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      out += chunk;
      // The next request once the first is answered.
      if (then !== undefined && out.endsWith('ok')) socket.write(then);
    });
    socket.on('close', () => resolve(out));
    socket.on('error', reject);
    socket.write(request);
  });
}

describe('listen: requests Node refuses before any app sees them', () => {
  let http: Listening;

  before(async () => {
    http = await listen((_req, res) => void res.end('ok'), 0, '127.0.0.1');
  });
  after(async () => {
    await http.close();
  });

  it('when a request cannot be parsed (an unknown method, Content-Length with Transfer-Encoding, headers too large), then the refusal still carries an X-Request-Id (D1) and closes the connection', async () => {
    for (const [request, status] of [
      ['FOO / HTTP/1.1\r\nHost: x\r\n\r\n', 400],
      ['POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n', 400],
      [`GET /?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, 431],
    ] as const) {
      const answer = await exchange(http.port, request);
      assert.match(answer, new RegExp(`^HTTP/1\\.1 ${status} `), answer);
      assert.match(answer, /\r\nX-Request-Id: [\w.:-]{1,128}\r\n/i, answer);
      assert.match(answer, /\r\nConnection: close\r\n/i, answer);
    }
  });

  it('when the refused request follows an answered one on the connection, then it is refused after that answer, with its own X-Request-Id', async () => {
    const answer = await exchange(http.port, 'GET / HTTP/1.1\r\nHost: x\r\n\r\n', 'FOO / HTTP/1.1\r\nHost: x\r\n\r\n');
    assert.match(answer, /^HTTP\/1\.1 200 [^]*\r\n\r\nokHTTP\/1\.1 400 Bad Request\r\nX-Request-Id: /, answer);
  });
});
