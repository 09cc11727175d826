/**
 * What the ClicToPay client sends and how it reads the answers against a
 * scripted acquirer: the buyer and 3-D Secure 2 fields with the card,
 * finish3dsVer2Payment.do and its absence (HTTP 404), and order-management
 * answers with no code at all, confirmed only by the order's status.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ClicToPayClient } from '../../src/acquirer/clictopay/clictopay.client.js';

type Script = Record<string, { status?: number; body: unknown }>;

describe('ClicToPay client calls', () => {
  let server: Server;
  let script: Script = {};
  const calls: { call: string; form: URLSearchParams }[] = [];
  let baseUrl = '';
  const client = new ClicToPayClient(5_000);
  const terminal = () => ({ baseUrl, userName: 'merchant-api', password: 'not-logged' });
  const ORDER = 'b7e1c0de-0000-4000-8000-000000000001';
  const card = { pan: '4000000000003220', cvc: '123', expMonth: '12', expYear: '2034', holder: 'Amina Ben Salah' };

  before(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const call = (req.url ?? '').split('/').pop() ?? '';
        calls.push({ call, form: new URLSearchParams(Buffer.concat(chunks).toString('utf8')) });
        const answer = script[call] ?? { status: 404, body: 'Not Found' };
        res.writeHead(answer.status ?? 200, { 'content-type': 'application/json' });
        res.end(typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/payment/rest/`;
  });

  beforeEach(() => {
    calls.length = 0;
    script = {};
  });

  after(async () => {
    await client.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('when a card is sent, then the buyer\'s address, email and phone, and threeDSVer2FinishUrl go with it; on the repeat, the transaction too', async () => {
    script['paymentorder.do'] = { body: { errorCode: '0', is3DSVer2: true, threeDSServerTransId: 'tx-1' } };
    const first = await client.pay(terminal(), ORDER, {
      card,
      language: 'ar',
      finishUrl: 'https://pay.example/checkout/tok/3ds/pa_1',
      buyer: { ip: '197.15.2.40', email: 'amina@example.tn', phone: '+21671000000' },
    });
    assert.deepEqual(first, { kind: 'repeat', serverTransId: 'tx-1' });
    await client.pay(terminal(), ORDER, { card, language: 'ar', finishUrl: 'https://pay.example/checkout/tok/3ds/pa_1', threeDSServerTransId: 'tx-1' });
    const [sent, repeat] = calls.map((c) => Object.fromEntries(c.form));
    assert.deepEqual(
      { ...sent, $PAN: 'sent', $CVC: 'sent', password: 'sent' },
      {
        userName: 'merchant-api',
        password: 'sent',
        MDORDER: ORDER,
        $PAN: 'sent',
        $CVC: 'sent',
        YYYY: '2034',
        MM: '12',
        TEXT: 'Amina Ben Salah',
        language: 'ar',
        ip: '197.15.2.40',
        email: 'amina@example.tn',
        phone: '+21671000000',
        threeDSVer2FinishUrl: 'https://pay.example/checkout/tok/3ds/pa_1',
      },
    );
    assert.equal(repeat?.['threeDSServerTransId'], 'tx-1');
    assert.equal(repeat?.['ip'], undefined);
  });

  it('when finish3dsVer2Payment.do answers, then 0 is finished and another code refused; HTTP 404 (no such call on this deployment) is absent', async () => {
    script['finish3dsVer2Payment.do'] = { body: { redirect: 'https://shop.example/r', errorCode: 0, is3DSVer2: true } };
    assert.deepEqual(await client.finish3ds2(terminal(), ORDER, 'tx-1'), { kind: 'finished' });
    assert.deepEqual(Object.fromEntries(calls[0]?.form ?? []), { userName: 'merchant-api', password: 'not-logged', mdOrder: ORDER, threeDSServerTransId: 'tx-1' });
    script['finish3dsVer2Payment.do'] = { body: { errorCode: '7', errorMessage: 'Wrong order state' } };
    assert.deepEqual(await client.finish3ds2(terminal(), ORDER, 'tx-1'), { kind: 'refused', message: 'errorCode 7: Wrong order state' });
    script['finish3dsVer2Payment.do'] = { status: 404, body: 'Not Found' };
    assert.deepEqual(await client.finish3ds2(terminal(), ORDER, 'tx-1'), { kind: 'absent' });
    script['finish3dsVer2Payment.do'] = { status: 500, body: 'oops' };
    await assert.rejects(client.finish3ds2(terminal(), ORDER, 'tx-1'), /HTTP 500/);
  });

  it('when reverse.do (void) answers no code at all, then it is done only if the order reads reversed (3); else unconfirmed', async () => {
    script['reverse.do'] = { body: {} };
    script['getOrderStatusExtended.do'] = { body: { errorCode: 0, orderStatus: 3, paymentAmountInfo: { depositedAmount: 0, refundedAmount: 0 } } };
    assert.deepEqual(await client.void(terminal(), ORDER), { kind: 'done' });
    assert.deepEqual(
      calls.map((c) => c.call),
      ['reverse.do', 'getOrderStatusExtended.do'],
    );
    script['getOrderStatusExtended.do'] = { body: { errorCode: 0, orderStatus: 2, paymentAmountInfo: { depositedAmount: 12500, refundedAmount: 0 } } };
    const still = await client.void(terminal(), ORDER);
    assert.equal(still.kind, 'unconfirmed');
    script['getOrderStatusExtended.do'] = { status: 503, body: 'down' };
    assert.equal((await client.void(terminal(), ORDER)).kind, 'unconfirmed');
  });

  it('when refund.do answers no code at all, then it is done only if refundedAmount exceeds what may have been refunded before by the amount', async () => {
    script['refund.do'] = { body: {} };
    script['getOrderStatusExtended.do'] = { body: { errorCode: 0, orderStatus: 4, paymentAmountInfo: { depositedAmount: 12500, refundedAmount: 7000 } } };
    assert.deepEqual(await client.refund(terminal(), { reference: ORDER, amount: '5.000', refundedAtMost: '2.000', paymentAmount: '12.500' }), { kind: 'done' });
    assert.equal((await client.refund(terminal(), { reference: ORDER, amount: '5.000', refundedAtMost: '2.001', paymentAmount: '12.500' })).kind, 'unconfirmed');
    script['getOrderStatusExtended.do'] = { body: { errorCode: 0, orderStatus: 4 } };
    assert.equal((await client.refund(terminal(), { reference: ORDER, amount: '5.000', refundedAtMost: '0.000', paymentAmount: '12.500' })).kind, 'unconfirmed', 'without paymentAmountInfo nothing shows it');
    // With a code, the code decides and no status is read.
    calls.length = 0;
    script['refund.do'] = { body: { ErrorCode: '7', ErrorMessage: 'System error' } };
    assert.deepEqual(await client.refund(terminal(), { reference: ORDER, amount: '5.000', refundedAtMost: '0.000', paymentAmount: '12.500' }), { kind: 'unconfirmed', errorCode: 7, message: 'System error' });
    assert.deepEqual(
      calls.map((c) => c.call),
      ['refund.do'],
    );
  });

  it('when deposit.do (capture) answers no code at all, then it is done only if the order reads deposited for exactly that amount', async () => {
    script['deposit.do'] = { body: {} };
    script['getOrderStatusExtended.do'] = { body: { errorCode: 0, orderStatus: 2, paymentAmountInfo: { approvedAmount: 12500, depositedAmount: 6000 } } };
    assert.deepEqual(await client.capture(terminal(), ORDER, '6.000'), { kind: 'done' });
    assert.equal((await client.capture(terminal(), ORDER, '12.500')).kind, 'unconfirmed');
    script['getOrderStatusExtended.do'] = { body: { errorCode: 0, orderStatus: 1, paymentAmountInfo: { approvedAmount: 12500, depositedAmount: 0 } } };
    assert.equal((await client.capture(terminal(), ORDER, '6.000')).kind, 'unconfirmed');
  });
});
