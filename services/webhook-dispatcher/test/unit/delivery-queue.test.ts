import assert from 'node:assert/strict';
import { DeliveryQueue, endpointKey } from '../../src/delivery/delivery-queue.js';

interface Job {
  deliveryId: string;
  url: string;
}

/** A queue whose sends wait until the test finishes them. */
function harness(limits: { total: number; perEndpoint: number; backlog: number }) {
  const started: Job[] = [];
  const finishers = new Map<string, () => void>();
  let rooms = 0;
  const queue = new DeliveryQueue<Job>(
    limits,
    (job) =>
      new Promise<void>((resolve) => {
        started.push(job);
        finishers.set(job.deliveryId, resolve);
      }),
    () => (rooms += 1),
  );
  const finish = async (id: string) => {
    finishers.get(id)?.();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { queue, started, finish, rooms: () => rooms };
}

const job = (id: string, host: string): Job => ({ deliveryId: id, url: `https://${host}/hooks` });

describe('delivery queue', () => {
  it('when one endpoint has many attempts waiting, then it holds only its share of the slots and others go first', () => {
    const { queue, started } = harness({ total: 4, perEndpoint: 2, backlog: 100 });
    for (let i = 0; i < 10; i += 1) queue.push(job(`slow-${i}`, 'slow.example'));
    queue.push(job('a', 'a.example'));
    queue.push(job('b', 'b.example'));
    assert.deepEqual(
      started.map((j) => j.deliveryId),
      ['slow-0', 'slow-1', 'a', 'b'],
    );
    assert.equal(queue.inFlight, 4);
  });

  it('when a slot frees, then endpoints are served round-robin', async () => {
    const { queue, started, finish } = harness({ total: 2, perEndpoint: 2, backlog: 100 });
    for (let i = 0; i < 3; i += 1) queue.push(job(`x-${i}`, 'x.example'));
    for (let i = 0; i < 3; i += 1) queue.push(job(`y-${i}`, 'y.example'));
    assert.deepEqual(started.map((j) => j.deliveryId), ['x-0', 'x-1']);
    await finish('x-0');
    await finish('x-1');
    assert.deepEqual(started.map((j) => j.deliveryId), ['x-0', 'x-1', 'y-0', 'x-2']);
  });

  it('when an endpoint backlog is full, then attempts are turned away until it is down to half, and then it asks for more', async () => {
    const { queue, started, finish, rooms } = harness({ total: 1, perEndpoint: 1, backlog: 4 });
    const accepted = Array.from({ length: 7 }, (_, i) => queue.push(job(`j-${i}`, 'h.example')));
    // One in flight, four waiting, two turned away.
    assert.deepEqual(accepted, [true, true, true, true, true, false, false]);
    assert.deepEqual(queue.fullEndpoints(), ['https://h.example']);
    await finish('j-0');
    assert.equal(rooms(), 0, 'three still waiting: more than half');
    await finish('j-1');
    assert.equal(rooms(), 1);
    assert.deepEqual(queue.fullEndpoints(), []);
    assert.equal(started.length, 3);
  });

  it('when an attempt is pushed twice, then it is sent once', () => {
    const { queue, started } = harness({ total: 1, perEndpoint: 1, backlog: 10 });
    queue.push(job('same', 'h.example'));
    queue.push(job('other', 'h.example'));
    queue.push(job('other', 'h.example'));
    assert.equal(queue.takeWaiting().length, 1);
    assert.equal(started.length, 1);
  });

  it('when keys are made, then scheme, host and port decide, case-insensitively, and the path does not', () => {
    assert.equal(endpointKey('https://Shop.Example:8443/a?b'), 'https://shop.example:8443');
    assert.equal(endpointKey('https://shop.example/other'), 'https://shop.example');
    assert.notEqual(endpointKey('http://shop.example/'), endpointKey('https://shop.example/'));
  });
});
