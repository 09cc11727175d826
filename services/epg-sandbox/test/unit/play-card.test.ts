import assert from 'node:assert/strict';
import { TEST_CARDS, type TestCardBehaviour } from '@gateway/test-cards';
import { offSessionOutcome } from '../../src/domain/play-card.js';

const approved = { kind: 'approve', refundsUnconfirmed: false, answerLate: false };

describe('charges without the buyer', () => {
  it("When D24's cards are charged without the buyer, then 3055 is declined insufficient funds and 3184 wants the buyer (authentication required)", () => {
    assert.deepEqual(offSessionOutcome('approve_off_session_insufficient_funds'), { kind: 'decline', reason: 'insufficient_funds' });
    assert.deepEqual(offSessionOutcome('approve_off_session_authentication_required'), { kind: 'decline', reason: 'authentication_required' });
  });

  it('When a 3-D Secure card is charged without the buyer, then it is approved: nobody can be challenged', () => {
    for (const behaviour of ['challenge_3ds1', 'challenge_3ds2', 'frictionless_3ds2'] as const) assert.deepEqual(offSessionOutcome(behaviour), approved, behaviour);
  });

  it('When any other card is charged without the buyer, then it ends as it does on the page: approvals (late, unconfirmed refunds) and declines alike', () => {
    const expected: Partial<Record<TestCardBehaviour, unknown>> = {
      approve: approved,
      approve_reverse_refused: approved,
      approve_capture_refused: approved,
      approve_capture_unconfirmed: approved,
      approve_capture_silently: approved,
      approve_refund_unconfirmed: { ...approved, refundsUnconfirmed: true },
      approve_silently: { ...approved, answerLate: true },
      card_declined: { kind: 'decline', reason: 'card_declined' },
      insufficient_funds: { kind: 'decline', reason: 'insufficient_funds' },
      expired_card: { kind: 'decline', reason: 'expired_card' },
      incorrect_cvc: { kind: 'decline', reason: 'incorrect_cvc' },
      processing_error: { kind: 'decline', reason: 'processing_error' },
      authentication_refused: { kind: 'decline', reason: 'authentication_refused' },
    };
    for (const [behaviour, outcome] of Object.entries(expected)) assert.deepEqual(offSessionOutcome(behaviour as TestCardBehaviour), outcome, behaviour);
    // Every behaviour of the shared table has an answer.
    for (const card of TEST_CARDS) assert.ok(offSessionOutcome(card.behaviour), card.number);
  });
});
