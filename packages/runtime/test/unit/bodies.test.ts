import assert from 'node:assert/strict';
import { request } from 'node:http';
import express, { type NextFunction, type Request, type Response } from 'express';
import { currentCorrelationId, withCorrelation } from '@gateway/observability';
import { bodyRefusal, formBody, listen, type Listening } from '../../src/index.js';

describe('formBody', () => {
  let http: Listening;

  before(async () => {
    const app = express();
    // As requestContext does: the rest of the request runs with its correlation id.
    app.use((req, _res, next) => withCorrelation(String(req.headers['x-request-id']), next));
    const answer = (req: Request, res: Response) => {
      res.json({ correlation: currentCorrelationId() ?? 'lost', body: req.body as unknown, prototype: req.body === undefined ? 'none' : Object.getPrototypeOf(req.body) === Object.prototype ? 'object' : 'other' });
    };
    app.post('/form', formBody({ maxBytes: 1_024, maxFields: 10 }), answer);
    app.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
      const refused = bodyRefusal(err);
      res.status(refused?.status ?? 500).json({ refused: refused?.type ?? 'not a refusal' });
    });
    http = await listen(app, 0, '127.0.0.1');
  });
  after(async () => http?.close());

  /** Posts `body`, in one piece or as the chunks given; answers the status and the JSON answer. */
  function post(path: string, body: string | string[], headers: Record<string, string>): Promise<{ status: number; json: Record<string, unknown> }> {
    return new Promise((resolve, reject) => {
      const req = request({ port: http.port, host: '127.0.0.1', method: 'POST', path, headers: { 'x-request-id': 'r-1', ...headers } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, json: correlated(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>) }));
      });
      req.on('error', reject);
      for (const chunk of Array.isArray(body) ? body : [body]) req.write(chunk);
      req.end();
    });
  }
  /** The answer without its correlation id, once it is checked to be the request's: the parsers must not lose the request's context. */
  function correlated(json: Record<string, unknown>): Record<string, unknown> {
    const { correlation, ...rest } = json;
    if (correlation !== undefined) assert.equal(correlation, 'r-1');
    return rest;
  }
  const FORM = { 'content-type': 'application/x-www-form-urlencoded', 'x-request-id': 'r-1' };

  it('when a form repeats a field or names one __proto__ or constructor, then repeats are an array, __proto__ is dropped and the prototype is untouched', async () => {
    const { status, json } = await post('/form', '__proto__=x&constructor=y&card=1&card=2&a[b]=c', FORM);
    assert.equal(status, 200);
    assert.deepEqual(json, { body: { constructor: 'y', card: ['1', '2'], 'a[b]': 'c' }, prototype: 'object' });
  });

  it('when a form is over its size or its field count, or in a charset other than UTF-8, then it is refused with 413 or 415', async () => {
    assert.deepEqual(await post('/form', `a=${'x'.repeat(1_100)}`, FORM), { status: 413, json: { refused: 'entity.too.large' } });
    assert.deepEqual(await post('/form', ['a=', 'x'.repeat(600), 'y'.repeat(600)], { ...FORM, 'transfer-encoding': 'chunked' }), { status: 413, json: { refused: 'entity.too.large' } });
    assert.deepEqual(await post('/form', Array.from({ length: 11 }, (_, i) => `f${i}=1`).join('&'), FORM), { status: 413, json: { refused: 'parameters.too.many' } });
    for (const charset of ['utf-16', 'iso-8859-1', '"latin1"']) {
      assert.deepEqual(await post('/form', 'a=1', { 'content-type': `application/x-www-form-urlencoded; charset=${charset}` }), { status: 415, json: { refused: 'charset.unsupported' } });
    }
    assert.deepEqual(await post('/form', 'a=%C3%A9', { 'content-type': 'application/x-www-form-urlencoded; Charset="UTF-8"' }), { status: 200, json: { body: { a: 'é' }, prototype: 'object' } });
  });

  it('when a form arrives compressed, then it is refused rather than inflated past its limit', async () => {
    assert.deepEqual(await post('/form', 'a=1', { ...FORM, 'content-encoding': 'gzip' }), { status: 415, json: { refused: 'encoding.unsupported' } });
  });

  it('when a body is not a form, then the form parser leaves it unread and req.body undefined', async () => {
    assert.deepEqual(await post('/form', '{"a":1}', { 'content-type': 'application/json' }), { status: 200, json: { prototype: 'none' } });
  });
});
