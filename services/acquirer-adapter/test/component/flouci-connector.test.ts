/**
 * The Flouci connector (D26, WALLET.md) against the epg-sandbox's Flouci,
 * started in this process: starting a payment (plain and pre-authorized),
 * where it stands (paid, pending, held, expired, declined, another
 * application's), confirming and canceling a hold, refunding; then its
 * transport against a scripted server: what it sends, and the answers that
 * leave the outcome unknown.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { Writable } from 'node:stream';
import { loadSandboxConfig, startSandbox } from '@gateway/epg-sandbox';
import { createLogger } from '@gateway/observability';
import { closedPort, RecordingServer } from '@gateway/testkit/recording-server';
import { AcquirerUnreachable, type OrderRequest, type Terminal } from '../../src/acquirer/acquirer.js';
import { FlouciClient } from '../../src/acquirer/flouci/flouci.client.js';
import { answerFlouciPage, payOnFlouciPage } from './flouci-buyer.js';

/** A Flouci application's keys: `Authorization: Bearer <publicKey>:<privateKey>`. */
interface App {
  readonly publicKey: string;
  readonly privateKey: string;
}

const APP: App = { publicKey: 'adapter-flouci-public', privateKey: 'adapter-flouci-private:secret' };
const OTHER_APP: App = { publicKey: 'other-flouci-public', privateKey: 'other-flouci-private' };

/** A fresh order of 12.500 TND, with its wallet hand-off; `webhookUrl` where Flouci's notice goes. */
function walletOrder(webhookUrl: string, fields: Partial<OrderRequest> = {}, timeoutSeconds = 600): OrderRequest {
  const attemptId = `pa_${randomBytes(8).toString('hex')}`;
  return {
    orderNumber: `TST-${randomBytes(3).toString('hex').toUpperCase()}`,
    amount: '12.500',
    returnUrl: `https://pay.example.tn/checkout/tok/${attemptId}`,
    description: 'Two books',
    language: 'fr',
    twoPhase: false,
    wallet: {
      trackingId: attemptId,
      successUrl: `https://pay.example.tn/checkout/tok/${attemptId}/flouci`,
      failUrl: `https://pay.example.tn/checkout/tok/${attemptId}/flouci?failed=1`,
      webhookUrl,
      timeoutSeconds,
    },
    ...fields,
  };
}

async function unreachable(call: Promise<unknown>): Promise<AcquirerUnreachable> {
  try {
    await call;
  } catch (err) {
    assert.ok(err instanceof AcquirerUnreachable, String(err));
    assert.doesNotMatch(err.message, /flouci-private|secret/);
    return err;
  }
  assert.fail('expected AcquirerUnreachable');
}

describe('Flouci connector against the sandbox', () => {
  let stopSandbox: () => Promise<void>;
  let sandboxUrl = '';
  let webhooks: RecordingServer;
  let clockOffsetMs = 0;
  const client = new FlouciClient(5_000);
  const account = (app: App = APP): Terminal => ({ baseUrl: `${sandboxUrl}/api/v2/`, userName: app.publicKey, password: app.privateKey });
  const order = (fields: Partial<OrderRequest> = {}, timeoutSeconds?: number) => walletOrder(webhooks.url('/flouci/notice'), fields, timeoutSeconds);

  /** A started payment's reference and page. */
  async function started(fields: Partial<OrderRequest> = {}, app = APP): Promise<{ reference: string; link: string }> {
    const result = await client.start(account(app), order(fields));
    assert.equal(result.kind, 'registered', JSON.stringify(result));
    assert.ok(result.kind === 'registered' && result.redirectUrl);
    return { reference: result.orderId, link: result.redirectUrl };
  }

  /** A pre-authorized payment the buyer approved: held. */
  async function heldPayment(): Promise<string> {
    const { reference, link } = await started({ twoPhase: true });
    await payOnFlouciPage(link, sandboxUrl);
    return reference;
  }

  /** A payment the buyer paid. */
  async function paidPayment(): Promise<string> {
    const { reference, link } = await started();
    await payOnFlouciPage(link, sandboxUrl);
    return reference;
  }

  const status = (reference: string | null, app = APP) => client.status(account(app), { reference, orderNumber: 'TST-ANY' });

  before(async () => {
    webhooks = await RecordingServer.start((_req, res) => res.end('ok'));
    const quiet = new Writable({ write: (_chunk, _encoding, done) => done() });
    const config = loadSandboxConfig({ PORT: '0', SANDBOX_FLOUCI_APPS: `${APP.publicKey}:${APP.privateKey},${OTHER_APP.publicKey}:${OTHER_APP.privateKey}` });
    const running = await startSandbox(config, createLogger({ service: 'epg-sandbox', level: 'warn', destination: quiet }), { now: () => new Date(Date.now() + clockOffsetMs) });
    sandboxUrl = `http://127.0.0.1:${running.port}`;
    stopSandbox = () => running.stop();
  });

  after(async () => {
    await client.close();
    await stopSandbox();
    await webhooks.stop();
  });

  it('when a payment starts, then Flouci registers it and the buyer is sent to its page; it is pending until they answer', async () => {
    const { reference, link } = await started();
    assert.match(link, new RegExp(`/flouci/pay/${reference}$`));
    assert.deepEqual(await status(reference), { kind: 'open' });
  });

  it('when the buyer pays, then the payment is paid for the amount asked, and Flouci posts its notice to the webhook', async () => {
    const { reference, link } = await started();
    const back = await payOnFlouciPage(link, sandboxUrl);
    assert.equal(back.searchParams.get('payment_id'), reference);
    assert.deepEqual(await status(reference), { kind: 'paid', amount: '12.500', maskedPan: '' });
    const deadline = Date.now() + 3_000;
    const noticed = () => webhooks.requests.some((req) => req.body.toString().includes(reference));
    while (!noticed() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.ok(noticed(), 'the webhook heard of the payment');
  });

  it('when a two-phase payment starts and the buyer approves it, then it is pre-authorized: held, for the whole amount', async () => {
    const reference = await heldPayment();
    assert.deepEqual(await status(reference), { kind: 'held', amount: '12.500', maskedPan: '' });
  });

  it('when the buyer is never approved, then the payment is pending, and once its session times out it is declined as wallet_expired', async () => {
    const result = await client.start(account(), order({}, 1));
    assert.ok(result.kind === 'registered' && result.redirectUrl);
    await payOnFlouciPage(result.redirectUrl, sandboxUrl, '20000003');
    assert.deepEqual(await status(result.orderId), { kind: 'open' });
    clockOffsetMs += 2_000;
    assert.deepEqual(await status(result.orderId), {
      kind: 'declined',
      failureCode: 'wallet_expired',
      failureMessage: 'The buyer did not complete the payment in time; nothing was charged.',
    });
  });

  it('when the wallet has too little (phone 20000002), then the payment is declined as wallet_declined', async () => {
    const { reference, link } = await started();
    const back = await payOnFlouciPage(link, sandboxUrl, '20000002');
    assert.match(back.toString(), /failed=1/);
    assert.deepEqual(await status(reference), {
      kind: 'declined',
      failureCode: 'wallet_declined',
      failureMessage: 'The Flouci wallet has insufficient balance; nothing was charged.',
    });
  });

  it('when the buyer cancels on the page, then the payment is declined as wallet_declined', async () => {
    const { reference, link } = await started();
    await answerFlouciPage(link, sandboxUrl, '', 'cancel');
    const state = await status(reference);
    assert.deepEqual([state.kind, state.kind === 'declined' && state.failureCode], ['declined', 'wallet_declined']);
  });

  it("when the reference is another application's payment, then Flouci does not know it: not-found", async () => {
    const { reference } = await started({}, OTHER_APP);
    assert.deepEqual(await status(reference), { kind: 'not-found' });
    assert.equal((await status(reference, OTHER_APP)).kind, 'open');
    assert.deepEqual(await status('no-such-payment'), { kind: 'not-found' });
  });

  it('when the payment never got a reference, then it is not-found without a call', async () => {
    const nowhere: Terminal = { ...account(), baseUrl: `http://127.0.0.1:${await closedPort()}/api/v2/` };
    assert.deepEqual(await client.status(nowhere, { reference: null, orderNumber: 'TST-ANY', byNumber: true }), { kind: 'not-found' });
  });

  it('when a hold is captured whole, then Flouci confirms it and it is paid; a second confirm is refused', async () => {
    const reference = await heldPayment();
    assert.deepEqual(await client.capture(account(), reference, '12.500'), { kind: 'done' });
    assert.deepEqual(await status(reference), { kind: 'paid', amount: '12.500', maskedPan: '' });
    const again = await client.capture(account(), reference, '12.500');
    assert.equal(again.kind, 'refused');
    assert.ok(again.kind === 'refused' && /not a pre-authorized payment/.test(again.message), JSON.stringify(again));
  });

  it('when part of a hold is to be captured, then it is refused, nothing confirmed: Flouci confirms a hold whole', async () => {
    const reference = await heldPayment();
    const result = await client.capture(account(), reference, '10.000');
    assert.equal(result.kind, 'refused');
    assert.ok(result.kind === 'refused' && /whole/.test(result.message) && result.errorCode === -1);
    assert.equal((await status(reference)).kind, 'held');
  });

  it('when a hold is voided, then Flouci releases it: declined and reversed; a second cancel is refused', async () => {
    const reference = await heldPayment();
    assert.deepEqual(await client.void(account(), reference), { kind: 'done' });
    assert.deepEqual(await status(reference), {
      kind: 'declined',
      failureCode: 'wallet_declined',
      failureMessage: 'The amount held on the Flouci wallet was released; nothing was charged.',
      reversed: true,
    });
    assert.equal((await client.void(account(), reference)).kind, 'refused');
    assert.equal((await client.capture(account(), reference, '12.500')).kind, 'refused');
  });

  it('when a paid payment is refunded whole, then Flouci refunds it; a second refund is refused', async () => {
    const reference = await paidPayment();
    const whole = { reference, amount: '12.500', refundedAtMost: '0.000', paymentAmount: '12.500' };
    assert.deepEqual(await client.refund(account(), whole), { kind: 'done' });
    const again = await client.refund(account(), whole);
    assert.equal(again.kind, 'refused');
    assert.ok(again.kind === 'refused' && /already refunded/.test(again.message), JSON.stringify(again));
  });

  it('when part of a payment, or a payment refunded before, is to be refunded, then it is refused without any call', async () => {
    const nowhere: Terminal = { ...account(), baseUrl: `http://127.0.0.1:${await closedPort()}/api/v2/` };
    const partial = await client.refund(nowhere, { reference: 'pay-1', amount: '5.000', refundedAtMost: '0.000', paymentAmount: '12.500' });
    assert.equal(partial.kind, 'refused');
    assert.ok(partial.kind === 'refused' && partial.errorCode === -1 && /whole payments only/.test(partial.message));
    assert.equal((await client.refund(nowhere, { reference: 'pay-1', amount: '12.500', refundedAtMost: '1.000', paymentAmount: '12.500' })).kind, 'refused');
  });

  it("when a pending payment is refunded, then Flouci's refusal says it is not refundable", async () => {
    const { reference } = await started();
    const result = await client.refund(account(), { reference, amount: '12.500', refundedAtMost: '0.000', paymentAmount: '12.500' });
    assert.deepEqual([result.kind, result.kind === 'refused' && result.errorCode], ['refused', 1]);
  });

  it("when the application's keys are wrong, then a start is credentials-rejected and a status is unreachable, the key in neither", async () => {
    const wrong = account({ publicKey: APP.publicKey, privateKey: 'not-the-secret' });
    const result = await client.start(wrong, order());
    assert.equal(result.kind, 'credentials-rejected');
    assert.doesNotMatch(JSON.stringify(result), /not-the-secret/);
    const err = await unreachable(status('any', { publicKey: APP.publicKey, privateKey: 'not-the-secret' }));
    assert.deepEqual([err.call, err.httpStatus], ['verify_payment', 401]);
    assert.equal((await client.void(wrong, 'any')).kind, 'refused');
  });

  it('when Flouci refuses the start (an amount it does not take), then the start is refused with its words', async () => {
    const result = await client.start(account(), order({ amount: '0.000' }));
    assert.equal(result.kind, 'refused');
    assert.ok(result.kind === 'refused' && /amount/.test(result.message));
  });

  it('when an order has no wallet hand-off, then nothing is sent: it is a programming error', async () => {
    const card: OrderRequest = { ...order(), wallet: undefined };
    await assert.rejects(client.start(account(), card), (err: Error) => !(err instanceof AcquirerUnreachable) && /wallet hand-off/.test(err.message));
  });
});

describe('Flouci connector transport', () => {
  let server: RecordingServer;
  /** How the scripted Flouci answers the next calls. */
  let answer: (res: ServerResponse) => void = (res) => res.end();
  const client = new FlouciClient(300);
  const account = (): Terminal => ({ baseUrl: server.url('/api/v2/'), userName: 'pub-key', password: 'priv-key-secret' });
  const json = (body: unknown, status = 200) => (res: ServerResponse) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

  before(async () => {
    server = await RecordingServer.start((_req, res) => answer(res));
  });

  beforeEach(() => {
    server.requests.length = 0;
  });

  after(async () => {
    await client.close();
    await server.stop();
  });

  it('when a payment starts, then generate_payment carries the Bearer keys and a JSON body with whole millimes', async () => {
    answer = json({ success: true, result: { success: true, payment_id: 'pay-1', link: 'https://flouci.example/pay/pay-1' }, code: 0 });
    const order = walletOrder('https://pay.example.tn/flouci/notice', { amount: '30.505', twoPhase: true }, 900);
    assert.deepEqual(await client.start(account(), order), { kind: 'registered', orderId: 'pay-1', redirectUrl: 'https://flouci.example/pay/pay-1' });
    const [sent] = server.requests;
    assert.deepEqual([sent?.method, sent?.url], ['POST', '/api/v2/generate_payment']);
    assert.ok(server.headerPairs().some(([name, value]) => name.toLowerCase() === 'authorization' && value === 'Bearer pub-key:priv-key-secret'));
    assert.deepEqual(JSON.parse(sent?.body.toString() ?? ''), {
      amount: 30505,
      developer_tracking_id: order.wallet?.trackingId,
      success_link: order.wallet?.successUrl,
      fail_link: order.wallet?.failUrl,
      webhook: 'https://pay.example.tn/flouci/notice',
      session_timeout_secs: 900,
      accept_card: false,
      pre_auth: true,
    });
  });

  it('when a status is asked, then verify_payment is a GET of the reference; confirm, cancel and refund post payment_id', async () => {
    answer = json({ success: true, result: { status: 'SUCCESS', amount: 12500, details: {} } });
    await client.status(account(), { reference: 'pay/1', orderNumber: 'TST-1' });
    answer = json({ success: true, result: { status: 'SUCCESS' } });
    await client.void(account(), 'pay-2');
    await client.refund(account(), { reference: 'pay-3', amount: '1.000', refundedAtMost: '0.000', paymentAmount: '1.000' });
    assert.deepEqual(server.requests.map((req) => [req.method, req.url, req.body.toString()]), [
      ['GET', '/api/v2/verify_payment/pay%2F1', ''],
      ['POST', '/api/v2/cancel_payment', '{"payment_id":"pay-2"}'],
      ['POST', '/api/v2/refund_payment', '{"payment_id":"pay-3"}'],
    ]);
  });

  for (const [name, script, reason] of [
    ['no answer in time', () => undefined, 'timed out'],
    ['garbage', (res: ServerResponse) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>maintenance</html>'), 'unreadable answer'],
    ['HTTP 500', json({ success: false, message: 'Internal error' }, 500), 'HTTP 500'],
  ] as const) {
    it(`when Flouci gives ${name}, then a start and a status are unreachable, maybe delivered, and an operation is unconfirmed`, async () => {
      answer = script;
      const order = walletOrder('https://pay.example.tn/flouci/notice');
      for (const call of [client.start(account(), order), client.status(account(), { reference: 'pay-1', orderNumber: 'TST-1' })]) {
        const err = await unreachable(call);
        assert.deepEqual([err.reason, err.maybeDelivered], [reason, true]);
        assert.doesNotMatch(err.message, /priv-key-secret/);
      }
      const voided = await client.void(account(), 'pay-1');
      assert.deepEqual([voided.kind, voided.kind !== 'done' && voided.errorCode], ['unconfirmed', -1]);
      assert.ok(voided.kind === 'unconfirmed' && voided.message.includes(reason));
      const refunded = await client.refund(account(), { reference: 'pay-1', amount: '1.000', refundedAtMost: '0.000', paymentAmount: '1.000' });
      assert.equal(refunded.kind, 'unconfirmed');
      // The hold cannot be read: nothing was confirmed, and the failure says so.
      const captured = await unreachable(client.capture(account(), 'pay-1', '1.000'));
      assert.deepEqual([captured.call, captured.maybeDelivered], ['confirm_payment', false]);
      assert.equal(server.requests.filter((req) => req.url.endsWith('confirm_payment')).length, 0);
    });
  }

  it('when a status answer is readable JSON but no status, then it is unreachable: the outcome is unknown', async () => {
    answer = json({ success: true, result: { status: 'SOMETHING_ELSE' } });
    const err = await unreachable(client.status(account(), { reference: 'pay-1', orderNumber: 'TST-1' }));
    assert.equal(err.reason, 'unreadable payment status');
  });

  it('when nothing listens, then an operation fails as unreachable, surely not delivered', async () => {
    const nowhere: Terminal = { ...account(), baseUrl: `http://127.0.0.1:${await closedPort()}/api/v2/` };
    const err = await unreachable(client.void(nowhere, 'pay-1'));
    assert.deepEqual([err.call, err.reason, err.maybeDelivered], ['cancel_payment', 'connection failed (ECONNREFUSED)', false]);
  });
});
