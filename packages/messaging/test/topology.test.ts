import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { topology } from '@gateway/contracts';
import { definitionsDocument, durableQueue, namesFor } from '@gateway/messaging';
import { repoRoot } from '@gateway/testkit';

describe('broker topology', () => {
  it('when the definitions file is compared with the code, then they are the same (npm run gen:definitions)', () => {
    const committed: unknown = JSON.parse(readFileSync(`${repoRoot}infra/rabbitmq/definitions.json`, 'utf8'));
    assert.deepEqual(committed, definitionsDocument('gw'));
  });

  it('when an event queue is declared, then it is a quorum queue with a delivery limit and a bound dead-letter queue', () => {
    const names = namesFor('gw');
    const [queue, dead] = durableQueue(names, 'gw.x.events', [{ exchange: names.events, routingKey: 'session.*' }]);
    assert.deepEqual(queue?.arguments, {
      'x-queue-type': 'quorum',
      'x-delivery-limit': 5,
      'x-dead-letter-exchange': 'gw.dead-letter',
      'x-dead-letter-routing-key': 'gw.x.events',
    });
    assert.equal(queue?.durable, true);
    assert.equal(dead?.name, 'gw.x.events.dead');
    assert.deepEqual(dead?.bindings, [{ exchange: 'gw.dead-letter', routingKey: 'gw.x.events' }]);
  });

  it('when command queues are declared, then each service has one, a transient classic queue (see topology.ts for why)', () => {
    const doc = definitionsDocument('gw') as { queues: { name: string; durable: boolean; arguments: Record<string, unknown> }[] };
    const commands = doc.queues.filter((q) => q.name.endsWith('.commands'));
    assert.deepEqual(commands.map((q) => q.name).sort(), Object.keys(topology).map((s) => `gw.${s}.commands`).sort());
    for (const q of commands) assert.deepEqual([q.durable, q.arguments['x-queue-type']], [false, 'classic']);
  });
});
