import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { bindingKeys, commandLane, commands, eventRoutingKey, topology, type CommandType } from '@gateway/contracts';
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

  it('when command queues are declared, then each service has a fast one and the services with slow commands a slow one, all transient classic queues (see topology.ts for why)', () => {
    const doc = definitionsDocument('gw') as { queues: { name: string; durable: boolean; arguments: Record<string, unknown> }[] };
    const commandQueues = doc.queues.filter((q) => /\.commands(\.slow)?$/.test(q.name));
    const fast = Object.keys(topology).map((s) => `gw.${s}.commands`);
    const slow = ['session', 'acquirer-adapter', 'refund'].map((s) => `gw.${s}.commands.slow`);
    assert.deepEqual(commandQueues.map((q) => q.name).sort(), [...fast, ...slow].sort());
    for (const q of commandQueues) assert.deepEqual([q.durable, q.arguments['x-queue-type']], [false, 'classic']);
  });

  it('when a command is sent, then the queue of its lane exists in the definitions, and what waits on the acquirer takes the slow lane', () => {
    const doc = definitionsDocument('gw') as { queues: { name: string }[] };
    const declared = new Set(doc.queues.map((q) => q.name));
    const names = namesFor('gw');
    for (const type of Object.keys(commands) as CommandType[]) assert.ok(declared.has(names.commandQueue(commands[type].service, commandLane(type))), type);
    const slow = (Object.keys(commands) as CommandType[]).filter((type) => commandLane(type) === 'slow');
    assert.deepEqual(slow.sort(), [
      'attempt.finish_3ds',
      'attempt.finish_wallet',
      'attempt.pay',
      'attempt.pay_wallet',
      'payment.authorize',
      'payment.authorize_saved',
      'payment.capture',
      'payment.charge_saved',
      'payment.check',
      'payment.finish_3ds',
      'payment.refund',
      'payment.start_wallet',
      'payment.verify',
      'refund.create',
      'session.capture',
      'session.charge',
      'terminal.probe',
    ]);
    assert.equal(names.commandQueue('session', 'slow'), 'gw.session.commands.slow');
    assert.equal(names.commandQueue('session'), 'gw.session.commands');
  });

  it('when a webhook event is about a session made through a payment link, then it is routed under its payment-link form, which only the checkout binds alone; every other subscriber of it binds both forms', () => {
    const session = (paymentLink?: string) => ({ id: 'ps_1', ...(paymentLink && { payment_link: paymentLink }) });
    assert.equal(eventRoutingKey({ type: 'session.succeeded', data: { session: session('pl_1') } }), 'session.succeeded.payment_link');
    assert.equal(eventRoutingKey({ type: 'refund.created', data: { session: session('pl_1') } }), 'refund.created.payment_link');
    assert.equal(eventRoutingKey({ type: 'session.succeeded', data: { session: session() } }), 'session.succeeded');
    // Only the webhook events (each about a session) are ever scoped.
    assert.equal(eventRoutingKey({ type: 'session.hold_canceled', data: { session: session('pl_1') } }), 'session.hold_canceled');
    assert.deepEqual(bindingKeys('payment.approved'), ['payment.approved']);
    assert.deepEqual(bindingKeys('session.*'), ['session.*', 'session.*.payment_link']);

    const doc = definitionsDocument('gw') as { bindings: { destination: string; routing_key: string }[] };
    const keysOf = (queue: string) => doc.bindings.filter((b) => b.destination === queue).map((b) => b.routing_key).sort();
    assert.deepEqual(keysOf('gw.checkout.events'), ['session.succeeded.payment_link']);
    for (const queue of ['gw.ledger.events', 'gw.notifier.events', 'gw.webhook-dispatcher.events']) {
      assert.ok(keysOf(queue).includes('session.succeeded') && keysOf(queue).includes('session.succeeded.payment_link'), queue);
    }
  });
});
