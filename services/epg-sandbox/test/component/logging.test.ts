/** The log lines of the sandbox: one per call, and never a card number, security code, password or token. */
import assert from 'node:assert/strict';
import { answerChallenge, decisionOf, postForm } from './acs-browser.js';
import { startHarness, TERMINAL, type Harness } from './sandbox-harness.js';

const PANS = ['4242424242424242', '4000000000003063', '4000000000000002', '4242424242424241'];
const CVC = '9173';

/** Every string value of a parsed log line, however deep. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(strings);
  return [];
}

describe('epg-sandbox: logging', () => {
  let sandbox: Harness;

  before(async () => {
    sandbox = await startHarness();
  });
  after(async () => {
    await sandbox?.stop();
  });

  it('When cards are paid, challenged, refused and finished, then each call logs one line with its name, order and errorCode, and no card data, password or token', async () => {
    const tokens: string[] = [];
    const { orderId, orderNumber } = await sandbox.register({ amount: '1000' });
    await sandbox.pay(orderId, PANS[0] ?? '', { $CVC: CVC });
    await sandbox.pay(orderId, PANS[0] ?? '', { $CVC: CVC });
    const declined = await sandbox.register();
    await sandbox.pay(declined.orderId, PANS[2] ?? '', { $CVC: CVC });
    const luhn = await sandbox.register();
    await sandbox.pay(luhn.orderId, PANS[3] ?? '', { $CVC: CVC });

    const challenged = await sandbox.register();
    const challenge = await sandbox.pay(challenged.orderId, PANS[1] ?? '', { $CVC: CVC });
    const paReq = String(challenge.body['paReq']);
    tokens.push(paReq);
    const page = (await postForm(`${sandbox.baseUrl}/acs`, { PaReq: paReq, MD: challenged.orderId, TermUrl: 'https://m.example/t' })).text;
    tokens.push(decisionOf(page));
    const paRes = (await answerChallenge(sandbox.baseUrl, page, 'Y')).fields['PaRes'] ?? '';
    tokens.push(paRes);
    await sandbox.call('finish3dsPayment.do', { mdOrder: challenged.orderId, paRes });
    await sandbox.call('getOrderStatusExtended.do', { orderNumber });
    await sandbox.call('register.do', {}, { userName: TERMINAL.userName, password: 'a-wrong-password' });

    const lines = sandbox.logs.map((line) => JSON.parse(line) as Record<string, unknown>);
    const calls = lines.filter((line) => line['msg'] === 'call');
    assert.deepEqual(
      calls.map((line) => [line['call'], line['errorCode']]),
      [
        ['register.do', '0'],
        ['paymentorder.do', '0'],
        ['paymentorder.do', '7'],
        ['register.do', '0'],
        ['paymentorder.do', '0'],
        ['register.do', '0'],
        ['paymentorder.do', '5'],
        ['register.do', '0'],
        ['paymentorder.do', '0'],
        ['finish3dsPayment.do', '0'],
        ['getOrderStatusExtended.do', '0'],
        ['register.do', '5'],
      ],
    );
    assert.equal(calls[0]?.['orderNumber'], orderNumber);
    assert.equal(calls[0]?.['orderId'], orderId);
    assert.equal(calls[1]?.['orderId'], orderId);
    assert.equal(calls[0]?.['level'], 'info');
    assert.ok(lines.some((line) => line['call'] === 'acs'));

    const text = sandbox.logs.join('\n');
    for (const secret of [...PANS, TERMINAL.password, 'a-wrong-password', ...tokens]) assert.ok(!text.includes(secret), `the log holds ${secret}`);
    for (const line of lines) {
      assert.ok(!strings(line).includes(CVC), 'a log value is the security code');
      assert.ok(!Object.keys(line).some((key) => /pan|cvc|password|pares|pareq|decision/i.test(key)), JSON.stringify(Object.keys(line)));
    }
  });

  it('When a call is refused for its body (too large), then its log line still names the call', async () => {
    const res = await fetch(`${sandbox.baseUrl}/payment/rest/register.do`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `orderNumber=${'x'.repeat(70_000)}`,
    });
    assert.equal(res.status, 413);
    const refused = sandbox.logs.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line['msg'] === 'call refused');
    assert.deepEqual(refused.map((line) => line['call']), ['register.do']);
  });
});
