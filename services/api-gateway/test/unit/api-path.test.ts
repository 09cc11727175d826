import assert from 'node:assert/strict';
import { apiPathOf } from '../../src/http/app.js';

describe('The API path of an Idempotency-Key scope', () => {
  it('when the target carries a query, a fragment, or the absolute form, then the path below /api/v1 is what express’s req.path was', () => {
    for (const url of [
      '/api/v1/gateway/sessions/ps_1/refund/',
      '/api/v1/gateway/sessions/ps_1/refund/?a=1',
      '/api/v1/gateway/sessions/ps_1/refund/#frag',
      '/api/v1/gateway/sessions/ps_1/refund/#frag?a=1',
      'http://gateway.example:8080/api/v1/gateway/sessions/ps_1/refund/',
      'HTTPS://gateway.example/api/v1/gateway/sessions/ps_1/refund/?x#y',
    ]) {
      assert.equal(apiPathOf(url), '/gateway/sessions/ps_1/refund/', url);
    }
    // Not decoded: the path as the client wrote it.
    assert.equal(apiPathOf('/api/v1/gateway/sessions/ps%5F1/cancel'), '/gateway/sessions/ps%5F1/cancel');
  });
});
