/**
 * The README's quickstart, run as a merchant would run it, against a running
 * system: if the SDK or the API moves under it, CI says so.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { payOnPage, pollUntil, TestSystem } from '@gateway/testkit';

// The SDK's package folder, from tests/system/dist/test/clients.
const packageDir = fileURLToPath(new URL('../../../../../packages/sdk/', import.meta.url));
const EXAMPLE = `${packageDir}examples/quickstart.mjs`;

describe('the quickstart of the SDK README', function () {
  this.timeout(60_000);
  let system: TestSystem;

  before(async () => {
    system = await TestSystem.start();
  });
  after(async () => {
    await system?.shutdown();
  });

  it('when the README shows the quickstart, then it is the executable example, word for word', () => {
    const readme = readFileSync(`${packageDir}README.md`, 'utf8');
    const block = /```js\n([\s\S]*?)```/.exec(readme)?.[1];
    assert.equal(block, readFileSync(EXAMPLE, 'utf8'));
  });

  it('when the example runs and the buyer pays on the page it prints, then its webhook handler verifies the event and fulfils the order', async () => {
    const merchant = await system.newMerchant({ limits: { account: 1000 } });
    const child = spawn(process.execPath, [EXAMPLE], {
      cwd: packageDir,
      env: { ...process.env, GATEWAY_API_KEY: merchant.testKey, GATEWAY_WEBHOOK_SECRET: merchant.webhookSecret, GATEWAY_BASE_URL: system.baseUrl, PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    try {
      await pollUntil(() => /Send the buyer to: (\S+)/.test(output), 15_000, `the checkout link in: ${output}`);
      const checkoutUrl = /Send the buyer to: (\S+)/.exec(output)?.[1] ?? '';
      assert.ok(checkoutUrl.startsWith(`${system.baseUrl}/checkout/`), checkoutUrl);
      assert.equal((await payOnPage(checkoutUrl, { card_number: '4242424242424242' })).status, 200);
      await pollUntil(() => /Paid: /.test(output), 15_000, `the fulfilment line in: ${output}`);
      assert.match(output, /Paid: ps_\w+ \(12\.500 TND\), fulfil order order-\d+/);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
