import assert from 'node:assert/strict';
import { TtlCache } from '../../src/ttl-cache.js';

describe('TtlCache', () => {
  it('when an entry is read before its time, then it is there, a kept undefined included; after, it is gone', () => {
    const cache = new TtlCache<string, string | undefined>(1_000, 10);
    cache.set('a', 'x', 0);
    cache.set('none', undefined, 0);
    assert.deepEqual(cache.lookup('a', 999), { value: 'x' });
    assert.deepEqual(cache.lookup('none', 999), { value: undefined });
    assert.equal(cache.lookup('a', 1_000), undefined);
    assert.equal(cache.lookup('missing', 0), undefined);
  });

  it('when the cache is full, then it is emptied before the next entry; a lifetime of 0 keeps nothing', () => {
    const cache = new TtlCache<number, number>(1_000, 3);
    for (const n of [1, 2, 3, 4]) cache.set(n, n, 0);
    assert.equal(cache.lookup(1, 0), undefined);
    assert.deepEqual(cache.lookup(4, 0), { value: 4 });
    const none = new TtlCache<string, string>(0, 3);
    none.set('a', 'x', 0);
    assert.equal(none.lookup('a', 0), undefined);
  });

  it('when entries are forgotten by value, then only those go', () => {
    const cache = new TtlCache<string, { merchant: string }>(1_000, 10);
    cache.set('k1', { merchant: 'm1' }, 0);
    cache.set('k2', { merchant: 'm2' }, 0);
    cache.deleteWhere((v) => v.merchant === 'm1');
    assert.equal(cache.lookup('k1', 0), undefined);
    assert.deepEqual(cache.lookup('k2', 0), { value: { merchant: 'm2' } });
  });
});
