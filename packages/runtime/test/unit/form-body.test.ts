import assert from 'node:assert/strict';
import { request } from 'node:http';
import { FormRefused, listen, readForm, type Listening } from '../../src/index.js';

const LIMITS = { maxBytes: 1_024, maxFields: 10 };

describe('readForm', () => {
  let http: Listening;
  let port: number;
  /** Each request's fields (without a prototype, so rebuilt as a plain object to compare) or refusal. */
  let read: Promise<{ fields?: Record<string, unknown>; prototype?: object | null; refused?: string }>;

  before(async () => {
    http = await listen(
      (req, res) => {
        read = readForm(req, LIMITS).then(
          (fields) => ({ fields: fields && { ...fields }, prototype: fields && Object.getPrototypeOf(fields) }),
          (err: unknown) => ({ refused: err instanceof FormRefused ? `${err.status} ${err.reason}` : String(err) }),
        );
        void read.then(({ refused }) => {
          res.statusCode = refused ? 413 : 200;
          res.end();
        });
      },
      0,
      '127.0.0.1',
    );
    port = http.port;
  });
  after(async () => http?.close());

  /** Posts `body`, sent in one piece or as the chunks given; answers the status. */
  function post(body: string | string[], headers: Record<string, string> = {}): Promise<number> {
    return new Promise((resolve, reject) => {
      const req = request({ port, method: 'POST', path: '/', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers } }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      for (const chunk of Array.isArray(body) ? body : [body]) req.write(chunk);
      req.end();
    });
  }

  it('when fields are named __proto__ or constructor, then they are fields like any other, on an object with no prototype', async () => {
    assert.equal(await post('__proto__=x&constructor=y&card=1&card=2'), 200);
    const { fields, prototype } = await read;
    assert.equal(prototype, null);
    assert.deepEqual(fields, { ['__proto__']: 'x', constructor: 'y', card: ['1', '2'] });
  });

  it('when the declared length is over the limit, then the body is refused before any of it is read', async () => {
    // Only the declared length goes with the head: the answer comes though the body never does.
    const status = await new Promise<number>((resolve, reject) => {
      const req = request({ port, method: 'POST', path: '/', headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': '1000000' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
        req.destroy();
      });
      req.on('error', (err) => (err.message === 'socket hang up' ? undefined : reject(err)));
      req.flushHeaders();
    });
    assert.equal(status, 413);
    assert.deepEqual(await read, { refused: '413 entity.too.large' });
  });

  it('when a body with no declared length grows over the limit, then it is refused, and one within it is read whole', async () => {
    assert.equal(await post(['a=', 'x'.repeat(600), 'y'.repeat(600)], { 'transfer-encoding': 'chunked' }), 413);
    assert.deepEqual(await read, { refused: '413 entity.too.large' });
    assert.equal(await post(['a=', 'x'.repeat(500)], { 'transfer-encoding': 'chunked' }), 200);
    assert.deepEqual((await read).fields, { a: 'x'.repeat(500) });
  });
});
