/** What the adapter's component tests send it: attempts as the session starts them, cards sealed as checkout seals them. */
import { randomBytes } from 'node:crypto';
import { CardSealer } from '@gateway/card-sealing';
import { newId, type StartedAttempt } from '@gateway/contracts';
import type { TestSystem } from '@gateway/testkit';

/** A test-mode attempt of a session of its own (12.500 TND). */
export function newAttempt(): StartedAttempt {
  return {
    attempt_id: newId('pa'),
    attempt_number: 1,
    session_id: newId('ps'),
    merchant_id: newId('mer'),
    livemode: false,
    order_number: `TST-${randomBytes(3).toString('hex').toUpperCase()}`,
    amount: '12.500',
    description: 'Two books',
  };
}

/** The card sealed for the adapter and bound to `attemptId`, as the hosted page does. */
export function sealCard(system: TestSystem, attemptId: string, pan: string): string {
  const sealer = CardSealer.fromJwk(system.envOf('checkout')['CARD_ENCRYPTION_KEY'] ?? '');
  return sealer.seal({ pan, cvc: '123', expMonth: '12', expYear: '2034', holder: 'Amina Ben Salah' }, attemptId);
}
