/**
 * card_country of an approved payment (INTERFACE 6.2 `payment.card_country`):
 * the acquirer's protocol (spec/ACQUIRER.md) tells no card's country, so every
 * path that announces or answers an approval says "not known" the one way D2
 * writes a card field with no value: an empty string, present, a string.
 */
import assert from 'node:assert/strict';
import type { Envelope } from '@gateway/contracts';
import { createLogger } from '@gateway/observability';
import type { OrderRow } from '../../src/db/order.repository.js';
import type { AdapterDeps } from '../../src/domain/deps.js';
import { CARD_COUNTRY_UNKNOWN, approveOrder, finishedStep } from '../../src/domain/finish-order.js';
import { orderRow } from './order-rows.js';

const order: OrderRow = orderRow({
  attempt_id: `pa_${'c'.repeat(24)}`,
  session_id: `ps_${'c'.repeat(24)}`,
  merchant_id: `mer_${'c'.repeat(24)}`,
  livemode: true,
  order_number: 'SHP-ABC123-1',
  acquirer_order_id: '9b1d6f0e-0000-4000-8000-000000000001',
  amount: '120.000',
  fee_amount: '3.900',
  net_amount: '116.100',
  created_at: new Date('2026-11-25T10:00:00Z'),
  updated_at: new Date('2026-11-25T10:00:05Z'),
});

describe('card_country of an approved payment', () => {
  it('when an approval is recorded, then payment.approved and the answer carry card_country as an empty string, and a later answer read from the order says the same', async () => {
    const announced: Envelope[] = [];
    const deps = {
      orders: {
        finish: async (_attemptId: string, _orderId: string | undefined, _outcome: unknown, event: Envelope) => {
          announced.push(event);
          return true;
        },
      },
      defaultPricing: { percent: '2.5', fixed: '0.900' },
      clock: () => new Date('2026-11-25T10:00:05Z'),
      log: createLogger({ service: 'card-country-test', level: 'silent' }),
      afterCommit: () => undefined,
    } as unknown as AdapterDeps;
    const { step, recorded } = await approveOrder(deps, order, 'corr');
    assert.equal(recorded, true);
    assert.equal(CARD_COUNTRY_UNKNOWN, '');
    const event = announced[0]?.data as Record<string, unknown> | undefined;
    assert.equal(announced[0]?.type, 'payment.approved');
    assert.ok(event && Object.hasOwn(event, 'card_country'), 'payment.approved omits card_country');
    assert.equal(event?.['card_country'], '');
    assert.equal(step.approved?.card_country, '');
    assert.equal(finishedStep(order).approved?.card_country, '');
  });
});
