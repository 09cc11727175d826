import assert from 'node:assert/strict';
import { scopePathOf } from '../../src/http/app.js';

describe('The path of an Idempotency-Key scope', () => {
  const refund = '/api/v1/gateway/sessions/:id/refund';

  it('when the target is written plainly, then it is the path below /api/v1 without its trailing slash, as express’s req.path stored it', () => {
    assert.equal(scopePathOf('/api/v1/gateway/sessions', '/api/v1/gateway/sessions/'), '/gateway/sessions');
    assert.equal(scopePathOf(refund, '/api/v1/gateway/sessions/ps_1/refund'), '/gateway/sessions/ps_1/refund');
    // The parameter as written, not decoded.
    assert.equal(scopePathOf(refund, '/api/v1/gateway/sessions/ps%5F1/refund/'), '/gateway/sessions/ps%5F1/refund');
    assert.equal(scopePathOf(refund, '/api/v1/gateway/sessions/ps%2F1/refund'), '/gateway/sessions/ps%2F1/refund');
  });

  it('when the target carries a query, a fragment, the absolute form or percent-encoded letters of the route, then the scope is the same', () => {
    for (const url of [
      '/api/v1/gateway/sessions/ps_1/refund/?a=1',
      '/api/v1/gateway/sessions/ps_1/refund/#frag',
      '/api/v1/gateway/sessions/ps_1/refund#frag?a=1',
      'http://gateway.example:8080/api/v1/gateway/sessions/ps_1/refund/',
      'HTTPS://gateway.example/api/v1/gateway/sessions/ps_1/refund/?x#y',
      '/%61pi/v1/gateway/sessions/ps_1/refund',
      '/api/v1/gateway/sessions/ps_1/refun%64/',
    ]) {
      assert.equal(scopePathOf(refund, url), '/gateway/sessions/ps_1/refund', url);
    }
  });
});
