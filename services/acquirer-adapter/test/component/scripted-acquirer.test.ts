/**
 * The adapter against a scripted acquirer, for the answers the sandbox never
 * gives: a second paymentorder.do answered with garbage or with another first
 * step, a cres naming another transaction, a deployment without
 * finish3dsVer2Payment.do, codes that disagree, and answers with no code at
 * all. None pays a session it should not, or twice.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { newId, type CommandReply, type CommandRequest, type StartedAttempt } from '@gateway/contracts';
import { TestSystem } from '@gateway/testkit';
import { newAttempt, sealCard } from './support.js';

type Answer = { status?: number; body: unknown };
type Step = CommandReply<'payment.authorize'>;

const TERM_URL = 'https://pay.example/checkout/tok/3ds/pa_x';
const ORDER_ID = 'b7e1c0de-0000-4000-8000-00000000000a';
const PAID = { errorCode: 0, orderStatus: 2, actionCode: 0, amount: 12500, cardAuthInfo: { maskedPan: '400000**3220' }, paymentAmountInfo: { approvedAmount: 12500, depositedAmount: 12500, refundedAmount: 0 } };
const cres = (transId: string) => Buffer.from(JSON.stringify({ threeDSServerTransID: transId, acsTransID: 'acs-1', messageType: 'CRes', messageVersion: '2.2.0', transStatus: 'Y' })).toString('base64url');

describe('Acquirer adapter, against a scripted acquirer', function () {
  this.timeout(60_000);
  let system: TestSystem;
  let server: Server;
  /** Each call's answers, taken in turn; the last one repeats. */
  let script: Record<string, Answer[]> = {};
  const calls: { call: string; form: URLSearchParams }[] = [];

  before(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const call = (req.url ?? '').split('/').pop() ?? '';
        calls.push({ call, form: new URLSearchParams(Buffer.concat(chunks).toString('utf8')) });
        const queue = script[call] ?? [];
        const answer = (queue.length > 1 ? queue.shift() : queue[0]) ?? { status: 404, body: 'Not Found' };
        res.writeHead(answer.status ?? 200, { 'content-type': 'application/json' });
        res.end(typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const acquirerUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/payment/rest/`;
    system = await TestSystem.start({ services: ['acquirer-adapter'], serviceEnv: { 'acquirer-adapter': { ACQUIRER_TEST_URL: acquirerUrl } } });
  });

  beforeEach(() => {
    calls.length = 0;
    script = { 'register.do': [{ body: { orderId: ORDER_ID, formUrl: 'https://acquirer.example/pay' } }] };
  });

  after(async () => {
    await system?.shutdown();
    server?.closeAllConnections();
    await new Promise<void>((resolve) => server?.close(() => resolve()));
  });

  const callsOf = (name: string) => calls.filter((c) => c.call === name);

  async function authorize(attempt: StartedAttempt, buyer?: CommandRequest<'payment.authorize'>['buyer']): Promise<Step> {
    return system.send<Step>('payment.authorize', { attempt, card: sealCard(system, attempt.attempt_id, '4000000000003220'), term_url: TERM_URL, ...(buyer && { buyer }) });
  }

  function finish(attempt: StartedAttempt, returned: CommandRequest<'payment.finish_3ds'>['returned']): Promise<Step> {
    return system.send<Step>('payment.finish_3ds', { session_id: attempt.session_id, attempt_id: attempt.attempt_id, returned });
  }

  async function order(attemptId: string): Promise<{ status: string; sealed_card: string | null; repeat_fields: unknown }> {
    const [row] = await system.db.query<{ status: string; sealed_card: string | null; repeat_fields: unknown }>(
      'SELECT status, sealed_card, repeat_fields FROM acquirer.orders WHERE attempt_id = $1',
      [attemptId],
    );
    assert.ok(row);
    return row;
  }

  it('when the repeat of a 3-D Secure 2 card is answered with garbage, then the card is not sent a third time, nothing is approved, and the status decides later', async () => {
    const attempt = newAttempt();
    script['paymentorder.do'] = [{ body: { errorCode: '0', is3DSVer2: true, threeDSServerTransId: 'tx-garbage' } }, { body: '<html>502 Bad Gateway</html>' }];
    script['getOrderStatusExtended.do'] = [{ body: { errorCode: 0, orderStatus: 6, actionCode: 151017 } }];
    const step = await authorize(attempt, { ip: '197.15.2.40', email: 'amina@example.tn' });
    assert.equal(step.outcome, 'pending');
    const [first, repeat] = callsOf('paymentorder.do');
    assert.deepEqual([callsOf('paymentorder.do').length, repeat?.form.get('threeDSServerTransId')], [2, 'tx-garbage']);
    assert.deepEqual([first?.form.get('ip'), first?.form.get('email'), first?.form.get('threeDSVer2FinishUrl')], ['197.15.2.40', 'amina@example.tn', TERM_URL]);
    assert.equal((await order(attempt.attempt_id)).status, 'UNKNOWN');
    // The browser comes back by GET: the acquirer's status says the issuer refused authentication.
    const back = await finish(attempt, { kind: 'return' });
    assert.deepEqual([back.outcome, back.failure_code], ['declined', 'authentication_failed']);
    assert.equal(callsOf('paymentorder.do').length, 2);
  });

  it('when the repeat after the 3DS Method answers another first step, then nothing more is sent; a second method return sends nothing either, and the kept card is gone', async () => {
    const attempt = newAttempt();
    const firstStep = { errorCode: '0', is3DSVer2: true, threeDSServerTransId: 'tx-m', threeDSMethodURL: 'https://acs.bank.example/method', threeDSMethodDataPacked: 'bWV0aG9k' };
    script['paymentorder.do'] = [{ body: firstStep }, { body: { ...firstStep, threeDSServerTransId: 'tx-m2' } }];
    script['getOrderStatusExtended.do'] = [{ body: { errorCode: 0, orderStatus: 5 } }];
    const step = await authorize(attempt);
    assert.deepEqual(step, { outcome: 'method', method: { url: 'https://acs.bank.example/method', fields: { threeDSMethodData: 'bWV0aG9k' } } });
    const kept = await order(attempt.attempt_id);
    assert.equal(kept.status, 'METHOD');
    assert.match(String(kept.sealed_card), /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/, 'the card kept sealed (compact JWE), never in clear');
    assert.ok(!String(kept.sealed_card).includes('4000000000003220') && !JSON.stringify(kept.repeat_fields).includes('4000000000003220'));

    const [one, two] = await Promise.all([finish(attempt, { kind: 'method', completed: true }), finish(attempt, { kind: 'method', completed: true })]);
    assert.deepEqual([one.outcome, two.outcome], ['pending', 'pending']);
    assert.equal(callsOf('paymentorder.do').length, 2, 'one repeat, whatever it answered and however often the page returned');
    assert.equal(callsOf('paymentorder.do')[1]?.form.get('threeDSServerTransId'), 'tx-m');
    const after = await order(attempt.attempt_id);
    assert.deepEqual([after.status, after.sealed_card, after.repeat_fields], ['UNKNOWN', null, null]);
  });

  it('when a cres names another transaction, then it is turned away and the challenge still waits; the right cres finishes it once, and a replay changes nothing', async () => {
    const attempt = newAttempt();
    script['paymentorder.do'] = [{ body: { errorCode: '0', is3DSVer2: true, threeDSServerTransId: 'tx-c', acsUrl: 'https://acs.bank.example/creq', packedCReq: 'Y3JlcQ' } }];
    script['finish3dsVer2Payment.do'] = [{ body: { errorCode: 0, is3DSVer2: true, redirect: 'https://pay.example/r' } }];
    script['getOrderStatusExtended.do'] = [{ body: PAID }];
    const step = await authorize(attempt);
    assert.deepEqual(step, { outcome: 'challenge', challenge: { url: 'https://acs.bank.example/creq', fields: { creq: 'Y3JlcQ' } } });

    await assert.rejects(finish(attempt, { kind: 'cres', cres: cres('tx-someone-else') }), /not for this payment/);
    assert.equal((await order(attempt.attempt_id)).status, 'CHALLENGED');
    assert.equal(callsOf('finish3dsVer2Payment.do').length, 0);
    // A paRes is not what this challenge awaits: nothing is sent.
    assert.equal((await finish(attempt, { kind: 'pa_res', pa_res: 'paRes' })).outcome, 'pending');

    const done = await finish(attempt, { kind: 'cres', cres: cres('tx-c') });
    assert.equal(done.outcome, 'approved');
    const sent = Object.fromEntries(callsOf('finish3dsVer2Payment.do')[0]?.form ?? []);
    assert.deepEqual({ ...sent, userName: '', password: '' }, { userName: '', password: '', mdOrder: ORDER_ID, threeDSServerTransId: 'tx-c' });
    const replay = await finish(attempt, { kind: 'cres', cres: cres('tx-c') });
    assert.equal(replay.outcome, 'approved');
    assert.equal(replay.approved?.attempt_id, attempt.attempt_id);
    assert.equal(callsOf('finish3dsVer2Payment.do').length, 1);
    assert.equal((await order(attempt.attempt_id)).status, 'APPROVED');
  });

  it('when the deployment has no finish3dsVer2Payment.do (HTTP 404), then the order status decides the challenge', async () => {
    const attempt = newAttempt();
    script['paymentorder.do'] = [{ body: { errorCode: '0', is3DSVer2: true, threeDSServerTransId: 'tx-404', acsUrl: 'https://acs.bank.example/creq', packedCReq: 'Y3JlcQ' } }];
    script['finish3dsVer2Payment.do'] = [{ status: 404, body: 'Not Found' }];
    script['getOrderStatusExtended.do'] = [{ body: PAID }];
    assert.equal((await authorize(attempt)).outcome, 'challenge');
    assert.equal((await finish(attempt, { kind: 'cres', cres: 'not-base64-json' })).outcome, 'approved');
    assert.equal(callsOf('finish3dsVer2Payment.do').length, 1);
  });

  it('when a refund is answered errorCode 0 with ErrorCode 7, then it is unconfirmed, not refunded; with no code at all, refunded only once the status shows it', async () => {
    const attempt = newAttempt();
    script['paymentorder.do'] = [{ body: { errorCode: '0', redirect: 'https://pay.example/r' } }];
    script['getOrderStatusExtended.do'] = [{ body: PAID }];
    assert.equal((await authorize(attempt)).outcome, 'approved');
    const refundOf = (amount: string) => ({ refund_id: newId('re'), attempt_id: attempt.attempt_id, merchant_id: attempt.merchant_id, livemode: false, amount, whole: false });

    script['refund.do'] = [{ body: { errorCode: 0, ErrorCode: 7, ErrorMessage: 'System error' } }];
    assert.deepEqual(await system.send('payment.refund', refundOf('2.000')), { outcome: 'unconfirmed', operation: 'refund', message: 'System error' });

    script['refund.do'] = [{ body: {} }];
    script['getOrderStatusExtended.do'] = [{ body: { ...PAID, orderStatus: 4, paymentAmountInfo: { ...PAID.paymentAmountInfo, refundedAmount: 2000 } } }];
    // 2.000 may have been refunded by the unconfirmed one: 2.000 refunded in all does not show this one.
    const unshown = await system.send<{ outcome: string }>('payment.refund', refundOf('1.000'));
    assert.equal(unshown.outcome, 'unconfirmed');
    script['getOrderStatusExtended.do'] = [{ body: { ...PAID, orderStatus: 4, paymentAmountInfo: { ...PAID.paymentAmountInfo, refundedAmount: 6000 } } }];
    assert.deepEqual(await system.send('payment.refund', refundOf('3.000')), { outcome: 'refunded', operation: 'refund', message: '' });
  });

  it('when a capture\'s deposit.do is answered with no code at all, then it is captured only as the order\'s status shows the deposit', async () => {
    const attempt = { ...newAttempt(), capture_method: 'manual' as const };
    const HELD = { errorCode: 0, orderStatus: 1, actionCode: 0, amount: 12500, paymentAmountInfo: { approvedAmount: 12500, depositedAmount: 0, refundedAmount: 0 } };
    script['registerPreAuth.do'] = [{ body: { orderId: ORDER_ID, formUrl: 'https://acquirer.example/pay' } }];
    script['paymentorder.do'] = [{ body: { errorCode: '0', redirect: 'https://pay.example/r' } }];
    script['getOrderStatusExtended.do'] = [{ body: HELD }];
    assert.ok((await authorize(attempt)).authorized);
    const capture = (amount: string) => ({ capture_id: newId('cap'), attempt_id: attempt.attempt_id, session_id: attempt.session_id, merchant_id: attempt.merchant_id, livemode: false, amount });

    script['deposit.do'] = [{ body: {} }];
    script['getOrderStatusExtended.do'] = [{ body: { ...HELD, orderStatus: 2, paymentAmountInfo: { ...HELD.paymentAmountInfo, depositedAmount: 7000 } } }];
    const captured = await system.send<CommandReply<'payment.capture'>>('payment.capture', capture('7.000'));
    assert.equal(captured.outcome, 'captured');
    assert.equal(captured.captured?.amount, '7.000');
    assert.deepEqual(
      calls.slice(-2).map((c) => c.call),
      ['deposit.do', 'getOrderStatusExtended.do'],
    );
  });

  it('when a capture\'s deposit.do is answered with no code and the status does not show it, then the capture is unknown, left for reconciliation, never recorded', async () => {
    const attempt = { ...newAttempt(), capture_method: 'manual' as const };
    const HELD = { errorCode: 0, orderStatus: 1, actionCode: 0, amount: 12500, paymentAmountInfo: { approvedAmount: 12500, depositedAmount: 0, refundedAmount: 0 } };
    script['registerPreAuth.do'] = [{ body: { orderId: ORDER_ID, formUrl: 'https://acquirer.example/pay' } }];
    script['paymentorder.do'] = [{ body: { errorCode: '0', redirect: 'https://pay.example/r' } }];
    script['getOrderStatusExtended.do'] = [{ body: HELD }];
    assert.ok((await authorize(attempt)).authorized);
    script['deposit.do'] = [{ body: {} }];
    const unknown = await system.send<CommandReply<'payment.capture'>>('payment.capture', {
      capture_id: newId('cap'),
      attempt_id: attempt.attempt_id,
      session_id: attempt.session_id,
      merchant_id: attempt.merchant_id,
      livemode: false,
      amount: '12.500',
    });
    assert.equal(unknown.outcome, 'unknown');
    const [row] = await system.db.query<{ hold: string; captured_amount: string | null }>('SELECT hold, captured_amount FROM acquirer.orders WHERE attempt_id = $1', [attempt.attempt_id]);
    assert.deepEqual([row?.hold, row?.captured_amount], ['CAPTURING', null]);
  });
});
