/**
 * Who sent a message (D17), as a service's broker connection decides it: by
 * the user_id RabbitMQ checked against the publisher's login. A service on any
 * user but its own refuses to start unless told that every service shares one.
 */
import assert from 'node:assert/strict';
import type { ConsumeMessage } from 'amqplib';
import { newId, type AuditEntry, type Envelope } from '@gateway/contracts';
import { Broker, fromItsPublisher } from '@gateway/messaging';
import { createLogger } from '@gateway/observability';

const log = createLogger({ service: 'test', level: 'silent' });

function delivery(userId?: string): ConsumeMessage {
  return { content: Buffer.from('{}'), fields: {} as ConsumeMessage['fields'], properties: { userId, headers: {} } as unknown as ConsumeMessage['properties'] };
}

function auditBy(service: string): Envelope {
  const entry: AuditEntry = {
    audit_id: newId('evt'),
    actor_type: 'operator',
    actor_id: 'alice@ops.example',
    actor_email: null,
    address: null,
    actor_key_id: 'kid',
    action: 'terminal.set',
    merchant_id: null,
    target: null,
    outcome: 'succeeded',
    detail: {},
    service,
    correlation_id: 'c',
    at: new Date().toISOString(),
  };
  return { id: entry.audit_id, type: 'audit.recorded', version: 1, occurred_at: entry.at, correlation_id: 'c', data: entry };
}

describe('Sender identity (D17)', () => {
  it('when a service logs in as another user than its own (a misnamed user, an administrator), then it refuses to start', () => {
    for (const user of ['payments-session', 'admin', 'gw.checkout']) {
      assert.throws(() => new Broker({ url: `amqp://${user}:secret@127.0.0.1:5672`, prefix: 'gw', service: 'session', log }), /must log in to the broker as gw\.session/);
    }
  });

  it('when it runs as its own user, then it accepts only the senders named, and nothing without a user_id', () => {
    const broker = new Broker({ url: 'amqp://gw.session:secret@127.0.0.1:5672', prefix: 'gw', service: 'session', log });
    assert.equal(broker.checksSenders, true);
    assert.equal(broker.accepts(delivery('gw.acquirer-adapter'), ['acquirer-adapter']), true);
    assert.equal(broker.accepts(delivery('gw.checkout'), ['acquirer-adapter']), false);
    assert.equal(broker.accepts(delivery(undefined), ['acquirer-adapter']), false);
    // Another system's user of the same service is a stranger.
    assert.equal(broker.accepts(delivery('gw2.acquirer-adapter'), ['acquirer-adapter']), false);
  });

  it('when every service shares one user by choice (BROKER_SHARED_USER), then it starts and checks nobody', () => {
    const broker = new Broker({ url: 'amqp://guest:guest@127.0.0.1:5672', prefix: 'gw', service: 'session', sharedUser: true, log });
    assert.equal(broker.checksSenders, false);
    assert.equal(broker.accepts(delivery(undefined), ['acquirer-adapter']), true);
  });

  it('when an audit entry names another service than the one that sent it, then it is refused; about itself, taken', () => {
    const gateway = new Broker({ url: 'amqp://gw.api-gateway:secret@127.0.0.1:5672', prefix: 'gw', service: 'api-gateway', log });
    assert.equal(fromItsPublisher(gateway, delivery('gw.webhook-dispatcher'), auditBy('acquirer-adapter'), 'event'), false);
    assert.equal(fromItsPublisher(gateway, delivery('gw.webhook-dispatcher'), auditBy('webhook-dispatcher'), 'event'), true);
    assert.equal(fromItsPublisher(gateway, delivery('gw.checkout'), auditBy('checkout'), 'event'), false);
  });
});
