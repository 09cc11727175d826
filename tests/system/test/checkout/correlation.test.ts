/**
 * One payment followed through every service by its correlation id: the
 * buyer's request id at the gateway becomes the id of the checkout step, the
 * session's and adapter's commands, the events, and the webhook's delivery.
 * And no key, webhook secret or card number in any service's log.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sessionRequest, TestSystem, WebhookReceiver } from '@gateway/testkit';

describe('Correlation across services', function () {
  this.timeout(60_000);
  let system: TestSystem;
  let receiver: WebhookReceiver;

  before(async () => {
    system = await TestSystem.start();
    receiver = await WebhookReceiver.start();
  });
  after(async () => {
    await receiver?.close();
    await system?.shutdown();
  });

  function logLines(file: string): Record<string, unknown>[] {
    return readFileSync(join(system.logDir, file), 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  }

  it('when a buyer pays, then the request id of the pay request is the correlation id in the logs of gateway, checkout, session, adapter and dispatcher, and no secret or card number is logged anywhere', async () => {
    const merchant = await system.newMerchant({ webhookUrl: receiver.url() });
    const created = await system.api(merchant.testKey).post<{ id: string; checkout_url: string }>('/gateway/sessions/', sessionRequest());
    assert.equal(created.status, 201, created.text);
    const correlationId = `pay-${randomUUID()}`;
    const paid = await fetch(`${created.body.checkout_url}/pay`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'x-request-id': correlationId, 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'en' },
      body: new URLSearchParams({ card_number: '4242424242424242', expiry: '12/34', cvc: '123', cardholder_name: 'Amina Ben Salah' }),
    });
    assert.equal(paid.status, 200);
    assert.match(await paid.text(), /Payment successful/);
    assert.equal(paid.headers.get('x-request-id'), correlationId);
    await receiver.waitFor((r) => r.some((x) => x.body.event === 'session.succeeded' && x.body.data['id'] === created.body.id));

    const services = ['api-gateway', 'checkout', 'session', 'acquirer-adapter', 'webhook-dispatcher'];
    const deadline = Date.now() + 5_000;
    let missing = services;
    while (missing.length > 0 && Date.now() < deadline) {
      missing = services.filter((service) => !logLines(`${service}.log`).some((line) => line['correlationId'] === correlationId));
      if (missing.length > 0) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.deepEqual(missing, [], `services whose logs never name ${correlationId}`);
    const delivered = logLines('webhook-dispatcher.log').find((line) => line['correlationId'] === correlationId);
    assert.equal(delivered?.['msg'], 'webhook delivered');

    const secrets = [merchant.testKey, merchant.webhookSecret, '4242424242424242', '4242 4242 4242 4242'];
    for (const file of readdirSync(system.logDir)) {
      const text = readFileSync(join(system.logDir, file), 'utf8');
      for (const secret of secrets) assert.ok(!text.includes(secret), `${file} holds a secret or a card number`);
    }
  });
});
