/**
 * Who may send what (D17), against a running system: an audit entry is taken
 * only from the service it is about, a refused command's answer goes nowhere
 * but a direct reply-to address, and the webhook dispatcher's dead letters are
 * counted for the dead-letter alert.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { newId, type AuditEntry, type Envelope } from '@gateway/contracts';
import { namesFor } from '@gateway/messaging';
import { pollUntil, TestSystem } from '@gateway/testkit';

describe('Message senders (D17) and the dispatcher\'s dead letters', function () {
  this.timeout(180_000);
  let system: TestSystem;

  before(async () => {
    system = await TestSystem.start({ services: ['api-gateway', 'session', 'webhook-dispatcher'], readyTimeoutMs: 90_000 });
  });
  after(async () => {
    await system?.shutdown();
  });

  it('when the webhook dispatcher publishes an audit.recorded claiming another service ran an operator command, then the audit log does not record it', async () => {
    // Five services may publish audit.recorded, each about itself only (eventPublisherField).
    const auditId = newId('evt');
    const entry: AuditEntry = {
      audit_id: auditId,
      actor_type: 'operator',
      actor_id: 'alice@ops.example',
      actor_email: null,
      address: null,
      actor_key_id: 'kid-forged',
      action: 'terminal.set',
      merchant_id: null,
      target: null,
      outcome: 'succeeded',
      detail: { note: 'forged by the webhook dispatcher' },
      service: 'acquirer-adapter',
      correlation_id: randomUUID(),
      at: new Date().toISOString(),
    };
    const envelope: Envelope = { id: auditId, type: 'audit.recorded', version: 1, occurred_at: entry.at, correlation_id: entry.correlation_id, data: entry };
    await system.publishConfirmedAs('webhook-dispatcher', async (channel, userId) => {
      channel.publish(namesFor(system.prefix).events, 'audit.recorded', Buffer.from(JSON.stringify(envelope)), { persistent: true, contentType: 'application/json', messageId: auditId, userId });
    });
    // The gateway's consumer stores a good entry within milliseconds.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const rows = await system.db.query<{ service: string }>('SELECT service FROM api_gateway.audit_log WHERE audit_id = $1', [auditId]);
    assert.deepEqual(rows, [], `an audit entry about acquirer-adapter, published by the webhook dispatcher, was recorded: ${JSON.stringify(rows)}`);
  });

  it('when a broker user that may not send a command names a durable queue as its replyTo, then the refusing service does not publish into that queue under its own user_id', async () => {
    // Answering any replyTo would let any broker user put messages stamped with the session's user on any queue.
    const target = namesFor(system.prefix).eventQueue('api-gateway');
    const dead = `${target}.dead`;
    const deadCount = async () => {
      let count = 0;
      await system.publishConfirmedAs('api-gateway', async (channel) => {
        count = (await channel.checkQueue(dead)).messageCount;
      });
      return count;
    };
    const before = await deadCount();
    const envelope: Envelope = { id: newId('cmd'), type: 'session.get', version: 1, occurred_at: new Date().toISOString(), correlation_id: randomUUID(), data: {} };
    await system.publishConfirmedAs('gateway-admin', async (channel, userId) => {
      channel.publish('', namesFor(system.prefix).commandQueue('session'), Buffer.from(JSON.stringify(envelope)), {
        type: envelope.type,
        contentType: 'application/json',
        correlationId: envelope.id,
        replyTo: target,
        userId,
      });
    });
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    assert.equal(await deadCount(), before, `a reply stamped ${system.prefix}.session was put on ${target} at the request of gateway-admin's broker user`);
  });

  it('when an event on the webhook dispatcher\'s queue is dead-lettered, then gateway_consumer_dead_letters shows it for that queue (else PaymentGatewayDeadLetters never fires for webhooks)', async () => {
    const queue = namesFor(system.prefix).eventQueue('webhook-dispatcher');
    // Malformed (not JSON): dead-lettered at once by decodeEventOrDeadLetter.
    await system.publishConfirmedAs('session', async (channel, userId) => {
      channel.publish('', queue, Buffer.from('not json'), { persistent: true, contentType: 'application/json', userId });
    });
    const series = async () =>
      (await system.metricsOf('webhook-dispatcher')).split('\n').find((l) => l.startsWith('gateway_consumer_dead_letters{') && l.includes(`queue="${queue}"`));
    await pollUntil(async () => (await series()) !== undefined, 10_000, `a gateway_consumer_dead_letters series for ${queue}`, 250);
    assert.equal(Number((await series())?.split(' ').pop()), 1);
  });
});
