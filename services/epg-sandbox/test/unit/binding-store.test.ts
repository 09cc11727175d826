import assert from 'node:assert/strict';
import { cardOf, describeBinding } from '../../src/domain/binding.js';
import { BindingStore } from '../../src/domain/binding.store.js';
import type { CardDetails } from '../../src/domain/card.js';

const card = (overrides: Partial<CardDetails> = {}): CardDetails => ({ maskedPan: '424242**4242', expiration: '202812', cardholderName: 'Amina', behaviour: 'approve', fingerprint: 'fp-4242', ...overrides });

describe('saved cards (bindings)', () => {
  it('When the same card is saved again for the same terminal and client, then it is the same binding; another client, terminal, expiry or card gets its own', () => {
    const store = new BindingStore(10);
    const first = store.save('t1', 'cus_1', card());
    assert.match(first.bindingId, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal(store.save('t1', 'cus_1', card({ cardholderName: 'Other name' })), first);
    const others = [store.save('t1', 'cus_2', card()), store.save('t2', 'cus_1', card()), store.save('t1', 'cus_1', card({ expiration: '203001' })), store.save('t1', 'cus_1', card({ fingerprint: 'fp-other' }))];
    assert.equal(new Set([first.bindingId, ...others.map((b) => b.bindingId)]).size, 5);
    assert.equal(store.size, 5);
  });

  it("When a binding is looked up by another terminal, then it is unknown; the client's list holds only its own terminal's, oldest first", () => {
    const store = new BindingStore(10);
    const a = store.save('t1', 'cus_1', card());
    const b = store.save('t1', 'cus_1', card({ fingerprint: 'fp-b', maskedPan: '555555**4444' }));
    store.save('t2', 'cus_1', card());
    store.save('t1', 'cus_2', card());
    assert.equal(store.byId('t1', a.bindingId), a);
    assert.equal(store.byId('t2', a.bindingId), undefined);
    assert.deepEqual(store.ofClient('t1', 'cus_1'), [a, b]);
    assert.deepEqual(store.ofClient('t1', 'nobody'), []);
  });

  it('When a binding is unbound, then it stays known but inactive, leaves the list, and the same card saved again is a new binding', () => {
    const store = new BindingStore(10);
    const first = store.save('t1', 'cus_1', card());
    store.unbind(first);
    assert.equal(store.byId('t1', first.bindingId)?.active, false);
    assert.deepEqual(store.ofClient('t1', 'cus_1'), []);
    const again = store.save('t1', 'cus_1', card());
    assert.notEqual(again.bindingId, first.bindingId);
    assert.equal(again.active, true);
    assert.deepEqual(store.ofClient('t1', 'cus_1'), [again]);
  });

  it('When a clientId holds characters a key could be split on, then clients stay apart', () => {
    const store = new BindingStore(10);
    const joined = store.save('t1', 'a","b', card());
    const split = store.save('t1","a', 'b', card());
    assert.notEqual(joined.bindingId, split.bindingId);
  });

  it('When more bindings are saved than retained, then the oldest is forgotten everywhere and its card may be saved anew', () => {
    const store = new BindingStore(2);
    const oldest = store.save('t1', 'cus_1', card());
    const kept = [store.save('t1', 'cus_1', card({ fingerprint: 'b' })), store.save('t1', 'cus_1', card({ fingerprint: 'c' }))];
    assert.equal(store.size, 2);
    assert.equal(store.byId('t1', oldest.bindingId), undefined);
    assert.deepEqual(store.ofClient('t1', 'cus_1'), kept);
    assert.notEqual(store.save('t1', 'cus_1', card()).bindingId, oldest.bindingId);
    assert.throws(() => new BindingStore(0), RangeError);
  });

  it('When a binding is charged after its card expired, then the card behaves as expired; before, as it was saved', () => {
    const binding = new BindingStore(1).save('t1', 'cus_1', card({ expiration: '202605', behaviour: 'approve_off_session_insufficient_funds' }));
    assert.equal(cardOf(binding, new Date('2026-05-31T23:59:59Z')).behaviour, 'approve_off_session_insufficient_funds');
    assert.equal(cardOf(binding, new Date('2026-06-01T00:00:00Z')).behaviour, 'expired_card');
    assert.deepEqual(describeBinding(binding), { bindingId: binding.bindingId, maskedPan: '424242**4242', expiryDate: '202605', clientId: 'cus_1' });
  });
});
