/** An order row as the repository reads it, for the adapter's unit tests: a paid test-mode card order of 12.500 TND, `fields` over it. */
import type { Envelope } from '@gateway/contracts';
import type { ClaimedOrder, FinalOutcome, OrderRow } from '../../src/db/order.repository.js';

export function orderRow(fields: Partial<OrderRow> = {}): OrderRow {
  const at = new Date('2026-11-29T09:00:00Z');
  return {
    attempt_id: 'pa_00000000000000000001',
    session_id: 'ps_00000000000000000001',
    merchant_id: 'mer_00000000000000000001',
    livemode: false,
    order_number: 'T-1',
    acquirer_order_id: 'a0b1c2d3-0000-4000-8000-000000000001',
    amount: '12.500',
    status: 'APPROVED',
    card_brand: 'visa',
    card_last_four: '4242',
    failure_code: '',
    failure_message: '',
    fee_amount: null,
    net_amount: null,
    created_at: at,
    updated_at: at,
    pricing_percent: null,
    pricing_fixed: null,
    capture_method: 'automatic',
    hold: null,
    capture_id: null,
    ended_captures: [],
    captured_amount: null,
    captured_at: null,
    three_ds_server_trans_id: null,
    challenge_return: null,
    save_customer: null,
    save_usage: null,
    saved_card: null,
    payment_method_type: 'card',
    wallet_account_id: null,
    ...fields,
  };
}

/**
 * The orders repository as reconciliation uses it, in memory: `due` claimed
 * once, every finish recorded in `finished` (and applied), no give-back due
 * (give-back.test.ts has those, on PostgreSQL).
 */
export function dueOnce(due: ClaimedOrder[]) {
  const finished: { attemptId: string; outcome: FinalOutcome; event: Envelope }[] = [];
  let left = due;
  const orders = {
    claimDue: async () => {
      const batch = left;
      left = [];
      return batch;
    },
    finish: async (attemptId: string, _reference: string | undefined, outcome: FinalOutcome, event: Envelope) => (finished.push({ attemptId, outcome, event }), true),
    claimGiveBack: async () => undefined,
  };
  return { orders, finished };
}
