/** The gateway's /checkout/ pass-through when the checkout service is not there. */
import assert from 'node:assert/strict';
import { TestSystem } from '@gateway/testkit';

describe('Gateway /checkout/ pass-through', function () {
  this.timeout(60_000);
  let system: TestSystem;

  before(async () => {
    // No checkout process: the gateway's upstream refuses connections.
    system = await TestSystem.start({ services: ['api-gateway', 'session', 'webhook-dispatcher'] });
  });

  after(async () => {
    await system?.shutdown();
  });

  it('when the checkout service does not answer, then the buyer gets a plain 502 that is not cached and says nothing of the failure', async () => {
    const response = await fetch(`${system.baseUrl}/checkout/some-link`);
    assert.equal(response.status, 502);
    assert.equal(response.headers.get('cache-control'), 'no-store');
    assert.equal(await response.text(), 'The payment page is unavailable; please try again.');
  });
});
