/** The acquirer's pages follow the hosted page's language (D18): register.do and paymentorder.do carry it. */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ClicToPayClient } from '../../src/acquirer/clictopay/clictopay.client.js';

describe('ClicToPay client languages', () => {
  let server: Server;
  const calls: { path: string; form: URLSearchParams }[] = [];
  let baseUrl = '';

  before(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        calls.push({ path: req.url ?? '', form: new URLSearchParams(Buffer.concat(chunks).toString('utf8')) });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ errorCode: '0', orderId: 'b7e1c0de-0000-4000-8000-000000000001', formUrl: 'https://acquirer.example/pay' }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/payment/rest/`;
  });

  after(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('when the page was in Arabic, English or French, then register.do and paymentorder.do send that language', async () => {
    const client = new ClicToPayClient(5_000);
    const terminal = { baseUrl, userName: 'merchant-api', password: 'not-logged' };
    const card = { pan: '4242424242424242', cvc: '123', expMonth: '12', expYear: '2034', holder: 'Amina Ben Salah' };
    for (const language of ['ar', 'en', 'fr'] as const) {
      calls.length = 0;
      const registered = await client.start(terminal, { orderNumber: `ORD-${language}`, amount: '12.500', returnUrl: 'https://pay.example/3ds', description: 'Books', language, twoPhase: false });
      assert.equal(registered.kind, 'registered');
      await client.pay(terminal, 'b7e1c0de-0000-4000-8000-000000000001', { card, language, finishUrl: 'https://pay.example/3ds' });
      assert.deepEqual(
        calls.map((call) => [call.path, call.form.get('language')]),
        [
          ['/payment/rest/register.do', language],
          ['/payment/rest/paymentorder.do', language],
        ],
      );
    }
  });
});
