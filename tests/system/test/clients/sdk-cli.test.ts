/**
 * The `gateway` bin as a developer runs it: `listen` spawned as a process
 * against a running system, forwarding to a local HTTP server; `trigger`
 * making the payment whose events it forwards.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { payOnPage, pollUntil, TestSystem, WebhookReceiver, WebhookReceivers } from '@gateway/testkit';
import { Gateway, SignatureVerificationError } from '@gateway/sdk';

const BIN = fileURLToPath(new URL('../../../../../packages/sdk/bin/gateway.mjs', import.meta.url));

/** A running bin, its output collected line by line. */
class Cli {
  readonly lines: string[] = [];
  readonly exited: Promise<number | null>;
  private waiters: (() => void)[] = [];

  constructor(readonly child: ChildProcess) {
    let buffered = '';
    const collect = (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const parts = buffered.split('\n');
      buffered = parts.pop() ?? '';
      this.lines.push(...parts);
      for (const wake of this.waiters) wake();
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  }

  static run(args: readonly string[], env: Record<string, string> = {}): Cli {
    return new Cli(spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] }));
  }

  /** The first line matching `pattern`, waiting for it up to `timeoutMs`. */
  async line(pattern: RegExp, timeoutMs = 15_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.lines.find((l) => pattern.test(l));
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no line matching ${pattern} in:\n${this.lines.join('\n')}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  }
}

describe('gateway listen and trigger', function () {
  this.timeout(60_000);
  let system: TestSystem;
  const running: Cli[] = [];
  const receivers = new WebhookReceivers();

  before(async () => {
    // Keep-alive comments every second instead of 25, so a test sees them; streams check their key every second instead of 5.
    system = await TestSystem.start({ serviceEnv: { 'api-gateway': { EVENT_STREAM_HEARTBEAT_SECONDS: '1', EVENT_STREAMS_PER_MERCHANT: '2', EVENT_STREAM_AUTH_CHECK_SECONDS: '1' } } });
  });
  after(async () => {
    for (const cli of running) cli.child.kill('SIGTERM');
    await Promise.all(running.map((cli) => cli.exited));
    await receivers.closeAll();
    await system?.shutdown();
  });

  const receiver = (): Promise<WebhookReceiver> => receivers.start();

  it("when listen runs and trigger pays a session, then the merchant's events reach the local URL signed with the printed secret, and another merchant's do not", async () => {
    const local = await receiver();
    const merchant = await system.newMerchant({ limits: { account: 1000 } });
    const other = await system.newMerchant({ limits: { account: 1000 } });
    const listen = Cli.run(['listen', '--forward-to', local.url('/webhooks'), '--base-url', system.baseUrl], { GATEWAY_API_KEY: merchant.testKey });
    running.push(listen);
    const ready = await listen.line(/^Ready\./);
    const secret = /(whsec_[0-9a-f]+)/.exec(ready)?.[1];
    assert.ok(secret, ready);

    // Another merchant's payment, made first: had it leaked into this stream, it would arrive before ours.
    const gateway = new Gateway(other.testKey, { baseUrl: system.baseUrl });
    const foreign = await gateway.sessions.create({ amount: '5.000', merchant_reference: `other-${Date.now()}`, first_name: 'A', last_name: 'B', email: 'a@example.tn' });
    await payOnPage(foreign.checkout_url ?? '', { card_number: '4242424242424242' });

    const trigger = Cli.run(['trigger', 'session.succeeded', '--api-key', merchant.testKey, '--base-url', system.baseUrl]);
    running.push(trigger);
    assert.equal(await trigger.exited, 0, trigger.lines.join('\n'));
    const sessionId = /Created (ps_\w+)/.exec(await trigger.line(/^Created /))?.[1];
    assert.ok(sessionId);

    await local.waitFor((received) => received.some((r) => r.body.event === 'session.succeeded'), 15_000);
    const delivery = local.received.find((r) => r.body.event === 'session.succeeded');
    assert.ok(delivery);
    assert.equal(delivery.path, '/webhooks');
    assert.equal(delivery.headers['x-service-event'], 'session.succeeded');
    assert.equal(delivery.headers['content-type'], 'application/json');
    const event = gateway.webhooks.constructEvent(delivery.raw, delivery.signature, secret);
    assert.equal(event.data.id, sessionId);
    assert.equal(event.data.livemode, false);
    assert.equal(event.id, delivery.eventId);
    assert.throws(() => gateway.webhooks.constructEvent(delivery.raw, delivery.signature, merchant.webhookSecret), SignatureVerificationError);
    assert.ok(local.received.every((r) => r.body.data.id !== foreign.id), 'no event of the other merchant');

    const printed = await listen.line(/session\.succeeded/);
    assert.match(printed, new RegExp(`^\\d{4}-\\d\\d-\\d\\dT\\S+Z  session\\.succeeded  ${event.id}  -> 200$`));
  });

  it('when trigger is asked for a decline, a cancellation and a refund, then listen forwards session.failed, session.canceled and refund.created', async () => {
    const local = await receiver();
    const merchant = await system.newMerchant({ limits: { account: 1000, create: 1000, refund: 1000 } });
    const listen = Cli.run(['listen', '--forward-to', local.url(), '--api-key', merchant.testKey, '--base-url', system.baseUrl]);
    running.push(listen);
    await listen.line(/^Ready\./);
    for (const event of ['session.failed', 'session.canceled', 'refund.created']) {
      const trigger = Cli.run(['trigger', event], { GATEWAY_API_KEY: merchant.testKey, GATEWAY_BASE_URL: system.baseUrl });
      running.push(trigger);
      assert.equal(await trigger.exited, 0, trigger.lines.join('\n'));
      await local.waitFor((received) => received.some((r) => r.body.event === event), 15_000);
    }
    const failed = local.received.find((r) => r.body.event === 'session.failed');
    assert.equal(failed?.body.data['can_retry'], false);
    assert.equal(failed?.body.data['status'], 'FAILED');
    const refunded = local.received.find((r) => r.body.event === 'refund.created');
    assert.equal((refunded?.body.data['refund'] as { amount?: string } | undefined)?.amount, '12.500');

    const unknown = Cli.run(['trigger', 'session.teleported', '--api-key', merchant.testKey, '--base-url', system.baseUrl]);
    running.push(unknown);
    assert.equal(await unknown.exited, 1);
    assert.match(unknown.lines.join('\n'), /choose one of session\.authorized, session\.succeeded, session\.failed, session\.canceled, refund\.created, payment_method\.attached, payment_method\.detached/);
  });

  it('when trigger is asked for a saved card and its removal, then listen forwards payment_method.attached and payment_method.detached, their data the card (D24)', async () => {
    const local = await receiver();
    const merchant = await system.newMerchant({ limits: { account: 1000, create: 1000, refund: 1000 } });
    const listen = Cli.run(['listen', '--forward-to', local.url(), '--api-key', merchant.testKey, '--base-url', system.baseUrl]);
    running.push(listen);
    await listen.line(/^Ready\./);
    const trigger = Cli.run(['trigger', 'payment_method.detached'], { GATEWAY_API_KEY: merchant.testKey, GATEWAY_BASE_URL: system.baseUrl });
    running.push(trigger);
    assert.equal(await trigger.exited, 0, trigger.lines.join('\n'));
    await local.waitFor((received) => received.some((r) => r.body.event === 'payment_method.detached'), 15_000);
    const attached = local.received.find((r) => r.body.event === 'payment_method.attached');
    const detached = local.received.find((r) => r.body.event === 'payment_method.detached');
    assert.deepEqual([attached?.body.data['card_last_four'], attached?.body.data['usage'], attached?.body.data['livemode']], ['4242', 'off_session', false]);
    assert.equal(detached?.body.data['id'], attached?.body.data['id']);
  });

  it('when a test key opens the stream, then it is an uncached event stream that says ready and keeps itself alive while idle', async () => {
    const merchant = await system.newMerchant();
    const stop = new AbortController();
    const answer = await fetch(`${system.apiUrl}/gateway/events/stream/`, { headers: { authorization: `Bearer ${merchant.testKey}` }, signal: stop.signal });
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get('content-type'), 'text/event-stream; charset=utf-8');
    assert.equal(answer.headers.get('cache-control'), 'no-store');
    let text = '';
    const started = Date.now();
    const reader = answer.body?.pipeThrough(new TextDecoderStream()).getReader();
    assert.ok(reader);
    while (!text.includes(': keep-alive') && Date.now() - started < 5_000) text += (await reader.read()).value ?? '';
    stop.abort();
    assert.ok(text.startsWith(': ready\n\n'), text);
    assert.ok(text.includes(': keep-alive\n\n'), text);
  });

  it('when an account already holds its streams open, then one more is refused with a 429 and Retry-After until one closes', async () => {
    const merchant = await system.newMerchant({ limits: { account: 1000 } });
    const open = () => {
      const stop = new AbortController();
      const answer = fetch(`${system.apiUrl}/gateway/events/stream/`, { headers: { authorization: `Bearer ${merchant.testKey}` }, signal: stop.signal });
      return { answer, stop };
    };
    const first = open();
    const second = open();
    assert.equal((await first.answer).status, 200);
    assert.equal((await second.answer).status, 200);
    const third = await open().answer;
    assert.equal(third.status, 429);
    assert.equal(third.headers.get('retry-after'), '5');
    assert.match(((await third.json()) as { type: string }).type, /\/errors\/rate-limit-exceeded$/);

    first.stop.abort();
    await pollUntil(async () => {
      const again = open();
      const status = (await again.answer).status;
      again.stop.abort();
      return status === 200;
    }, 5_000, 'a stream opens once another closed');
    second.stop.abort();
  });

  /** The stream of `key` read until it ends (or `withinMs` passes): its text, and whether it ended. */
  async function readStream(key: string, withinMs: number, opened: () => Promise<void>): Promise<{ text: string; ended: boolean }> {
    const stop = new AbortController();
    const answer = await fetch(`${system.apiUrl}/gateway/events/stream/`, { headers: { authorization: `Bearer ${key}` }, signal: stop.signal });
    assert.equal(answer.status, 200);
    const reader = answer.body?.pipeThrough(new TextDecoderStream()).getReader();
    assert.ok(reader);
    let text = '';
    const timer = setTimeout(() => stop.abort(), withinMs);
    try {
      text += (await reader.read()).value ?? '';
      await opened();
      for (;;) {
        const chunk = await reader.read();
        if (chunk.done) return { text, ended: true };
        text += chunk.value;
      }
    } catch {
      return { text, ended: false };
    } finally {
      clearTimeout(timer);
    }
  }

  it('when the key a listen runs with is rolled (as the dashboard does), then listen stops within seconds with the reason, and a later event of the merchant reaches nobody', async () => {
    const local = await receiver();
    const merchant = await system.newMerchant({ limits: { account: 1000, create: 1000 } });
    const created = (await system.admin(['key', 'create', merchant.merchantId, '--mode', 'test'])) as { key_id: string; secret_key: string };
    const listen = Cli.run(['listen', '--forward-to', local.url(), '--api-key', created.secret_key, '--base-url', system.baseUrl]);
    running.push(listen);
    await listen.line(/^Ready\./);

    const rolledAt = Date.now();
    await system.send('api_key.rotate', { merchant_id: merchant.merchantId, key_id: created.key_id, revoke_in_seconds: 0 });
    assert.equal(await Promise.race([listen.exited, new Promise((resolve) => setTimeout(() => resolve('still running'), 10_000))]), 1);
    assert.ok(Date.now() - rolledAt < 10_000);
    assert.match(listen.lines.join('\n'), /API key/i);

    const trigger = Cli.run(['trigger', 'session.succeeded', '--api-key', merchant.testKey, '--base-url', system.baseUrl]);
    running.push(trigger);
    assert.equal(await trigger.exited, 0, trigger.lines.join('\n'));
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    assert.deepEqual(local.received, [], 'nothing forwarded after the roll');
  });

  it('when the key of an open stream is revoked, or its merchant suspended (operator commands), then the stream ends with a last comment saying why', async () => {
    const merchant = await system.newMerchant({ limits: { account: 1000 } });
    const created = (await system.admin(['key', 'create', merchant.merchantId, '--mode', 'test'])) as { key_id: string; secret_key: string };
    const revoked = await readStream(created.secret_key, 8_000, async () => void (await system.admin(['key', 'revoke', created.key_id])));
    assert.ok(revoked.ended, `the stream went on: ${revoked.text}`);
    assert.match(revoked.text, /: closed: this API key no longer works\.\n\n$/);

    const suspended = await readStream(merchant.testKey, 8_000, async () => void (await system.admin(['merchant', 'suspend', merchant.merchantId])));
    assert.ok(suspended.ended, `the stream went on: ${suspended.text}`);
    assert.match(suspended.text, /: closed: this merchant account is suspended\.\n\n$/);
    const again = await fetch(`${system.apiUrl}/gateway/events/stream/`, { headers: { authorization: `Bearer ${merchant.testKey}` } });
    assert.equal(again.status, 403, 'and it cannot be opened again');
  });

  it('when a live key asks for the event stream, then it is refused with a 403 problem and listen exits with the reason', async () => {
    const merchant = await system.newMerchant();
    const liveKey = await system.approveLive(merchant.merchantId);
    const answer = await fetch(`${system.apiUrl}/gateway/events/stream/`, { headers: { authorization: `Bearer ${liveKey}` } });
    assert.equal(answer.status, 403);
    assert.match(answer.headers.get('content-type') ?? '', /application\/problem\+json/);
    const problem = (await answer.json()) as { type: string; detail: string };
    assert.match(problem.type, /\/errors\/forbidden$/);
    assert.match(problem.detail, /test keys/);

    const listen = Cli.run(['listen', '--forward-to', 'http://127.0.0.1:9/hooks', '--api-key', liveKey, '--base-url', system.baseUrl]);
    running.push(listen);
    assert.equal(await listen.exited, 1);
    assert.match(listen.lines.join('\n'), /test keys/);
    assert.ok(!listen.lines.some((l) => l.includes(liveKey)), 'the key is never printed');
  });

  it('when a listener stops, its queue goes with it; when a gateway replica stops, its streams end at once and listen says it reconnects', async () => {
    const merchant = await system.newMerchant({ limits: { account: 1000 } });
    const streamQueues = async () => [...(await system.queueCounts()).keys()].filter((name) => name.startsWith(`${system.prefix}.api-gateway.broadcast.`)).length;
    const before = await streamQueues();

    const local = Cli.run(['listen', '--forward-to', 'http://127.0.0.1:9/hooks', '--api-key', merchant.testKey, '--base-url', system.baseUrl]);
    running.push(local);
    await local.line(/^Ready\./);
    assert.equal(await streamQueues(), before + 1);
    local.child.kill('SIGINT');
    assert.equal(await local.exited, 0);
    await pollUntil(async () => (await streamQueues()) === before, 5_000, "the stopped listener's queue is gone");

    const port = await system.startService('api-gateway', 'api-gateway-2');
    const listen = Cli.run(['listen', '--forward-to', 'http://127.0.0.1:9/hooks', '--api-key', merchant.testKey, '--base-url', `http://127.0.0.1:${port}`]);
    running.push(listen);
    await listen.line(/^Ready\./);
    // The replica's own cache listener, and this stream's queue.
    assert.equal(await streamQueues(), before + 2);

    const stopped = await system.stopServiceTimed('api-gateway-2');
    assert.equal(stopped.code, 0);
    // An open stream holding the server would make the stop wait out SHUTDOWN_TIMEOUT_MS (5 s here).
    assert.ok(stopped.ms < 3_000, `the stop took ${stopped.ms} ms`);
    await listen.line(/stream interrupted .*; reconnecting/);
    await pollUntil(async () => (await streamQueues()) === before, 5_000, "the stopped replica's queues are gone");
  });
});
