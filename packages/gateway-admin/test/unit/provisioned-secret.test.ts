/**
 * `merchant create` and `merchant approve-kyb` (D13) when the webhook secret,
 * provisioned by the dispatcher from the merchant event, cannot be read in
 * time (the dispatcher down): the merchant and its keys exist, and the live
 * key is shown only once, so what was made is still handed out, with an error.
 */
import assert from 'node:assert/strict';
import { AppError } from '@gateway/problem';
import { IncompleteOutput, runAdmin, type Send } from '../../src/admin.js';

const MERCHANT = `mer_${'k'.repeat(24)}`;

/** A broker on which the dispatcher does not answer: reveal_secret times out, like an RpcTimeoutError. */
function sendWithoutDispatcher(calls: string[]): Send {
  return (async (type: string) => {
    calls.push(type);
    if (type === 'merchant.create') return { merchant_id: MERCHANT, order_prefix: 'KS', test_secret_key: 'sk_test_abc' };
    if (type === 'merchant.approve_kyb') return { merchant_id: MERCHANT, live_secret_key: 'sk_live_shown_once' };
    if (type === 'webhook_endpoint.reveal_secret') throw Object.assign(new Error('webhook_endpoint.reveal_secret was not answered within 5000 ms'), { name: 'RpcTimeoutError' });
    throw new Error(`unexpected ${type}`);
  }) as Send;
}

async function incomplete(run: Promise<unknown>): Promise<IncompleteOutput> {
  try {
    await run;
  } catch (err) {
    assert.ok(err instanceof IncompleteOutput, `an IncompleteOutput, got ${String(err)}`);
    return err;
  }
  assert.fail('expected the command to fail');
}

describe('gateway-admin: a webhook secret that cannot be read after the change was made', () => {
  it('when KYB is approved but the live webhook secret cannot be read, then the live key (shown only once) is still handed out, with an error', async () => {
    const calls: string[] = [];
    const err = await incomplete(runAdmin(['merchant', 'approve-kyb', MERCHANT], sendWithoutDispatcher(calls)));
    assert.deepEqual(err.output, { merchant_id: MERCHANT, live_secret_key: 'sk_live_shown_once' });
    assert.match(err.message, /KYB was approved, but its live-mode webhook secret could not be read/);
    assert.deepEqual(calls, ['merchant.approve_kyb', 'webhook_endpoint.reveal_secret']);
  });

  it('when a merchant is created but its test webhook secret cannot be read, then its id and test key are still handed out, with an error', async () => {
    const calls: string[] = [];
    const err = await incomplete(runAdmin(['merchant', 'create', '--name', 'Kept Shop'], sendWithoutDispatcher(calls)));
    assert.deepEqual(err.output, { merchant_id: MERCHANT, test_secret_key: 'sk_test_abc' });
    assert.match(err.message, /the merchant was created/);
  });

  it('when the endpoint is still being provisioned, then reading is tried again and the whole output printed', async () => {
    let reveals = 0;
    const send = (async (type: string) => {
      if (type === 'merchant.create') return { merchant_id: MERCHANT, order_prefix: 'KS', test_secret_key: 'sk_test_abc' };
      reveals += 1;
      if (reveals === 1) throw new AppError('not-found', 'no endpoint yet');
      return { merchant_id: MERCHANT, mode: 'test', url: '', webhook_secret: 'whsec_1' };
    }) as Send;
    assert.deepEqual(await runAdmin(['merchant', 'create', '--name', 'Kept Shop'], send), { merchant_id: MERCHANT, test_secret_key: 'sk_test_abc', test_webhook_secret: 'whsec_1' });
    assert.equal(reveals, 2);
  });

  it('when the dispatcher refused the webhook URL the merchant was created with (a private address after DNS), then everything made is printed, with an error saying the URL is not set', async () => {
    const given = 'https://hooks.kept-shop.example/gateway';
    const answer = (url: string) =>
      (async (type: string) => {
        if (type === 'merchant.create') return { merchant_id: MERCHANT, order_prefix: 'KS', test_secret_key: 'sk_test_abc' };
        return { merchant_id: MERCHANT, mode: 'test', url, webhook_secret: 'whsec_1' };
      }) as Send;
    const err = await incomplete(runAdmin(['merchant', 'create', '--name', 'Kept Shop', '--webhook-url', given], answer('')));
    assert.deepEqual(err.output, { merchant_id: MERCHANT, test_secret_key: 'sk_test_abc', test_webhook_secret: 'whsec_1' });
    assert.match(err.message, /refused its webhook URL/);
    assert.match(err.message, /webhook set-url/);
    // Kept, it is the whole output; with no URL asked for, none is missing.
    const whole = { merchant_id: MERCHANT, test_secret_key: 'sk_test_abc', test_webhook_secret: 'whsec_1' };
    assert.deepEqual(await runAdmin(['merchant', 'create', '--name', 'Kept Shop', '--webhook-url', given], answer(given)), whole);
    assert.deepEqual(await runAdmin(['merchant', 'create', '--name', 'Kept Shop'], answer('')), whole);
  });
});
