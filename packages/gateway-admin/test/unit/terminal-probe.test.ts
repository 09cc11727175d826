/**
 * `terminal probe` (an operator going live): what it sends, in which order
 * and with how long a wait, and the usage it refuses before sending anything.
 */
import assert from 'node:assert/strict';
import { AppError } from '@gateway/problem';
import { runAdmin, UsageError, type Send } from '../../src/admin.js';

const MERCHANT = `mer_${'p'.repeat(24)}`;

const ANSWER = {
  merchant_id: MERCHANT,
  terminal: { user_name: 'shop-live', active: false, rejected: false },
  acquirer_url: 'https://ipay.clictopay.com/payment/rest/',
  credentials: 'accepted',
  error_fields: [{ field: 'errorCode', type: 'number', code: 0 }],
  error_message: 'Success',
  order_found: true,
  order_status: 2,
  payment_amount_info: true,
  card_number: { field: 'maskedPan', masked: true },
  shape: { errorCode: 'number', orderStatus: 'number' },
};

interface Sent {
  type: string;
  data: unknown;
  timeoutMs: number | undefined;
}

/** Records what is sent; the merchant is known unless `unknownMerchant`. */
function recorder(sent: Sent[], unknownMerchant = false): Send {
  return (async (type: string, data: unknown, options?: { timeoutMs?: number }) => {
    sent.push({ type, data, timeoutMs: options?.timeoutMs });
    if (type === 'merchant.get') {
      if (unknownMerchant) throw new AppError('not-found', 'No such merchant.');
      return { merchant_id: MERCHANT };
    }
    if (type === 'terminal.probe') return ANSWER;
    throw new Error(`unexpected ${type}`);
  }) as Send;
}

describe('gateway-admin terminal probe', () => {
  it('when an order number is given, then the merchant is looked up, then the probe sent with a wait longer than the acquirer call, and its answer printed as is', async () => {
    const sent: Sent[] = [];
    assert.deepEqual(await runAdmin(['terminal', 'probe', '--merchant', MERCHANT, '--order-number', 'DZ-7K3M9Q-1'], recorder(sent)), ANSWER);
    assert.deepEqual(sent, [
      { type: 'merchant.get', data: { merchant_id: MERCHANT }, timeoutMs: undefined },
      { type: 'terminal.probe', data: { merchant_id: MERCHANT, order_number: 'DZ-7K3M9Q-1' }, timeoutMs: 20_000 },
    ]);
  });

  it('when an order id is given, then the probe names the order by its id', async () => {
    const sent: Sent[] = [];
    await runAdmin(['terminal', 'probe', '--order-id', '6d1b7f0e-4a8e-4f4e-9d3c-0b1a2c3d4e5f', '--merchant', MERCHANT], recorder(sent));
    assert.deepEqual(sent[1]?.data, { merchant_id: MERCHANT, order_id: '6d1b7f0e-4a8e-4f4e-9d3c-0b1a2c3d4e5f' });
  });

  it('when the merchant is unknown, then its refusal is the answer and no terminal is probed', async () => {
    const sent: Sent[] = [];
    await assert.rejects(runAdmin(['terminal', 'probe', '--merchant', MERCHANT, '--order-number', 'N1'], recorder(sent, true)), (err: unknown) => (err as AppError).code === 'not-found');
    assert.deepEqual(
      sent.map((s) => s.type),
      ['merchant.get'],
    );
  });

  it('when the order is named twice, not at all, emptily, or the merchant is missing or positional, then it is a usage error and nothing is sent', async () => {
    const sent: Sent[] = [];
    for (const argv of [
      ['--merchant', MERCHANT],
      ['--merchant', MERCHANT, '--order-number', 'N1', '--order-id', 'I1'],
      ['--merchant', MERCHANT, '--order-number', ''],
      ['--order-number', 'N1'],
      [MERCHANT, '--order-number', 'N1'],
      ['--merchant', MERCHANT, '--order-number', 'N1', '--mode', 'live'],
    ]) {
      await assert.rejects(runAdmin(['terminal', 'probe', ...argv], recorder(sent)), UsageError, argv.join(' '));
    }
    assert.deepEqual(sent, []);
  });
});
