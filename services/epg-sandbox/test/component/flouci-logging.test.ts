/** The sandbox's Flouci log lines: one per call and per buyer step, and never a private key, an Authorization header or a full phone number. */
import assert from 'node:assert/strict';
import { answerPage, bearer, FlouciClient, openPage, payWith } from './flouci-client.js';
import { FLOUCI_APP, startHarness, type Harness } from './sandbox-harness.js';
import { startWebhookReceiver } from './webhook-receiver.js';

const PHONES = ['98765432', '20000002', '20000003', '55123456'];

describe('epg-sandbox: Flouci logging', () => {
  let sandbox: Harness;

  before(async () => {
    sandbox = await startHarness();
  });
  after(async () => {
    await sandbox?.stop();
  });

  it('When payments are generated, paid, declined, held, confirmed, refunded and refused, then each call logs its name, application and payment, and no secret or phone', async () => {
    const hooks = await startWebhookReceiver();
    const flouci = new FlouciClient(sandbox.baseUrl);
    try {
      const paid = await flouci.newPayment({ webhook: hooks.url });
      await openPage(paid.page);
      await payWith(paid.page, PHONES[0] ?? '');
      const declined = await flouci.newPayment({ webhook: hooks.url });
      await payWith(declined.page, PHONES[1] ?? '');
      const pending = await flouci.newPayment();
      await payWith(pending.page, PHONES[2] ?? '');
      const held = await flouci.newPayment({ pre_auth: true });
      await answerPage(held.page, { phone: '123', action: 'confirm' });
      await payWith(held.page, PHONES[3] ?? '');
      await flouci.confirm(held.paymentId);
      await flouci.refund(paid.paymentId);
      await flouci.refund(paid.paymentId);
      await flouci.verify(declined.paymentId);
      await flouci.call('GET', `verify_payment/${paid.paymentId}`, undefined, `Bearer ${FLOUCI_APP.publicKey}:a-wrong-private-key`);
      await hooks.next(2);
    } finally {
      await hooks.close();
    }

    const lines = sandbox.logs.map((line) => JSON.parse(line) as Record<string, unknown>);
    const calls = lines.filter((line) => line['msg'] === 'flouci call');
    assert.deepEqual(
      calls.map((line) => [line['call'], line['success'], line['status']]),
      [
        ['generate_payment', true, 200],
        ['generate_payment', true, 200],
        ['generate_payment', true, 200],
        ['generate_payment', true, 200],
        ['confirm_payment', true, 200],
        ['refund_payment', true, 200],
        ['refund_payment', false, 200],
        ['verify_payment', true, 200],
        ['verify_payment', false, 401],
      ],
    );
    assert.ok(calls.slice(0, 8).every((line) => line['app'] === FLOUCI_APP.publicKey && typeof line['paymentId'] === 'string'));
    assert.equal(calls[6]?.['message'], 'Payment was already refunded');
    const answers = lines.filter((line) => line['call'] === 'flouci-answer');
    assert.deepEqual(answers.map((line) => [line['status'], line['paymentStatus']]), [[303, 'SUCCESS'], [303, 'FAILURE'], [303, 'PENDING'], [400, undefined], [303, 'PENDING']]);
    assert.ok(lines.some((line) => line['call'] === 'flouci-webhook' && line['msg'] === 'webhook delivered'));

    const text = sandbox.logs.join('\n');
    for (const secret of [FLOUCI_APP.privateKey, 'a-wrong-private-key', bearer(FLOUCI_APP), 'Bearer', ...PHONES]) assert.ok(!text.includes(secret), `the log holds ${secret}`);
    for (const line of lines) assert.ok(!Object.keys(line).some((key) => /authorization|private|phone|secret|token/i.test(key)), JSON.stringify(Object.keys(line)));
  });
});
