import assert from 'node:assert/strict';
import { registeredOrder } from '../../src/domain/order.js';
import { OrderStore } from '../../src/domain/order.store.js';

const order = (orderId: string, orderNumber: string, terminal = 't1') =>
  registeredOrder({ orderId, terminal, orderNumber, amount: 1000, returnUrl: 'https://m.example/r', failUrl: undefined, language: 'fr', registeredAt: 0, twoPhase: false });

describe('order store', () => {
  it("When a terminal reuses its orderNumber, then it is refused; another terminal's same number is kept", () => {
    const store = new OrderStore(10);
    assert.equal(store.add(order('a', 'N1')), true);
    assert.equal(store.add(order('b', 'N1')), false);
    assert.equal(store.add(order('c', 'N1', 't2')), true);
    assert.equal(store.size, 2);
    assert.equal(store.byNumber('t1', 'N1')?.orderId, 'a');
    assert.equal(store.byNumber('t2', 'N1')?.orderId, 'c');
  });

  it("When a terminal asks for another terminal's order, then it is not found", () => {
    const store = new OrderStore(10);
    store.add(order('a', 'N1'));
    assert.equal(store.byId('t2', 'a'), undefined);
    assert.equal(store.byNumber('t2', 'N1'), undefined);
    assert.equal(store.byIdAnyTerminal('a')?.orderId, 'a');
  });

  it('When more orders than the retention are added, then the oldest go, with their orderNumbers', () => {
    const store = new OrderStore(2);
    store.add(order('a', 'N1'));
    store.add(order('b', 'N2', 't2'));
    store.add(order('c', 'N3'));
    assert.equal(store.size, 2);
    assert.equal(store.byId('t1', 'a'), undefined);
    assert.equal(store.hasNumber('t1', 'N1'), false);
    assert.equal(store.add(order('d', 'N1')), true);
    assert.equal(store.byId('t2', 'b'), undefined);
    assert.equal(store.hasNumber('t2', 'N2'), false);
    assert.deepEqual([store.byId('t1', 'c')?.orderId, store.byNumber('t1', 'N1')?.orderId], ['c', 'd']);
  });
});
