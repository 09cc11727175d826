import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { AcsTokens } from '../../src/domain/acs-tokens.js';
import { approvePayment } from '../../src/domain/approve-payment.js';
import { BindingStore } from '../../src/domain/binding.store.js';
import type { CardDetails } from '../../src/domain/card.js';
import { attachCard, registeredOrder, type NewOrder, type Order } from '../../src/domain/order.js';
import { OrderStore } from '../../src/domain/order.store.js';
import type { Sandbox } from '../../src/domain/sandbox.js';

const NOW = new Date('2026-05-15T12:00:00Z');
const CARD: CardDetails = { maskedPan: '424242**4242', expiration: '202812', cardholderName: 'Amina', behaviour: 'approve', fingerprint: 'fp-4242' };

function sandbox(): Sandbox {
  return { store: new OrderStore(10), tokens: new AcsTokens(randomBytes(32)), bindings: new BindingStore(10), cardKey: randomBytes(32), publicUrl: 'https://sandbox.example', slowDelayMs: 0, finish3dsVer2: true, now: () => NOW, wait: async () => {} };
}

let counter = 0;
function order(fields: Partial<NewOrder> = {}): Order {
  counter += 1;
  const o = registeredOrder({ orderId: `o-${counter}`, terminal: 't1', orderNumber: `N${counter}`, amount: 10_000, returnUrl: 'https://m.example/r', failUrl: undefined, language: 'fr', registeredAt: NOW.getTime(), twoPhase: false, ...fields });
  attachCard(o, CARD);
  return o;
}

describe('approving a payment', () => {
  it('When an order registered to save the card is approved, then the card is saved for its client and the order names the binding', () => {
    const s = sandbox();
    const o = order({ clientId: 'cus_1', saveCard: true });
    approvePayment(s, o);
    assert.equal(o.status, 2);
    const [saved] = s.bindings.ofClient('t1', 'cus_1');
    assert.ok(saved);
    assert.deepEqual(o.binding, { clientId: 'cus_1', bindingId: saved.bindingId });
    assert.equal(saved.card, CARD);
  });

  it('When a two-phase order to save the card is held, then the card is saved too; the same card approved again for the client is the same binding', () => {
    const s = sandbox();
    const held = order({ clientId: 'cus_1', saveCard: true, twoPhase: true });
    approvePayment(s, held, '05');
    assert.deepEqual([held.status, held.eci], [1, '05']);
    const again = order({ clientId: 'cus_1', saveCard: true });
    approvePayment(s, again);
    assert.equal(again.binding?.bindingId, held.binding?.bindingId);
    assert.equal(s.bindings.size, 1);
  });

  it('When an order has a clientId but did not ask to save the card, then its approval saves nothing', () => {
    const s = sandbox();
    const o = order({ clientId: 'cus_1' });
    approvePayment(s, o);
    assert.equal(o.status, 2);
    assert.equal(o.binding, undefined);
    assert.equal(s.bindings.size, 0);
  });
});
