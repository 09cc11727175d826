/**
 * Paying with Flouci (D26) against the whole system over plain HTTP, as a
 * browser without script would: the page's button, the hand-off to the
 * sandbox's Flouci page, the return, and what must never pay a session: a
 * forged notice, a return naming another session's attempt, a return
 * replayed after the session was paid by card, a live merchant without
 * Flouci keys. Short settings: a buyer has 6 s on Flouci's page, and the
 * adapter's sweep looks every second.
 */
import assert from 'node:assert/strict';
import type { SessionDetail } from '@gateway/contracts';
import { payOnPage, sessionRequest, TestSystem, WebhookReceiver, type Merchant, type ReceivedWebhook } from '@gateway/testkit';
import { FlouciBuyer } from './flouci-buyer.js';

describe('Paying with Flouci (D26)', function () {
  this.timeout(60_000);
  let system: TestSystem;
  let buyer: FlouciBuyer;

  before(async () => {
    system = await TestSystem.start({
      serviceEnv: { 'acquirer-adapter': { SWEEP_INTERVAL_SECONDS: '1', RECONCILE_AFTER_SECONDS: '16', WALLET_TIMEOUT_SECONDS: '6', RECONCILE_MAX_DELAY_SECONDS: '2' } },
    });
    buyer = new FlouciBuyer(system);
  });

  after(async () => {
    await system?.shutdown();
  });

  async function newSession(merchant: Merchant, body: Record<string, unknown> = {}, key = merchant.testKey): Promise<SessionDetail> {
    const created = await system.api(key).post<SessionDetail>('/gateway/sessions/', sessionRequest({ locale: 'en', ...body }));
    assert.equal(created.status, 201, created.text);
    return created.body;
  }

  async function session(merchant: Merchant, id: string, key = merchant.testKey): Promise<SessionDetail> {
    const read = await system.api(key).get<SessionDetail>(`/gateway/sessions/${id}/`);
    assert.equal(read.status, 200, read.text);
    return read.body;
  }

  it('when a buyer pays with Flouci, then the session succeeds with a flouci attempt, and the webhook names the method', async () => {
    const receiver = await WebhookReceiver.start();
    try {
      const merchant = await system.newMerchant({ webhookUrl: receiver.url() });
      const paid = await newSession(merchant, { amount: '48.250' });
      const page = await (await fetch(paid.checkout_url ?? '', { headers: { 'accept-language': 'en' } })).text();
      assert.match(page, /<button[^>]*>Pay with Flouci<\/button>/);
      const { link, attemptId } = await buyer.start(paid);
      const back = await buyer.answer(link, '22123456');
      assert.equal(back.pathname, new URL(`${paid.checkout_url ?? ''}/wallet/${attemptId}`).pathname);
      const returned = await buyer.returnTo(back);
      assert.equal(returned.status, 200);
      const read = await session(merchant, paid.id);
      assert.deepEqual([read.status, read.payment_method], ['SUCCEEDED', 'flouci']);
      assert.deepEqual(
        read.attempts.map((a) => [a.payment_method_type, a.status, a.card_brand, a.card_last_four]),
        [['flouci', 'SUCCEEDED', 'flouci', '']],
      );
      const succeeded = (received: readonly ReceivedWebhook[]) => received.find((d) => d.body.event === 'session.succeeded' && (d.body.data as { id?: string }).id === paid.id);
      await receiver.waitFor((received) => succeeded(received) !== undefined);
      const payment = (succeeded(receiver.received)?.body.data as { payment: { method: string; card_brand: string } }).payment;
      assert.deepEqual([payment.method, payment.card_brand], ['flouci', 'flouci']);
    } finally {
      await receiver.close();
    }
  });

  it('when Flouci declines the buyer, then the page offers the card and Flouci again, and the card pays; the Flouci return replayed afterwards changes nothing', async () => {
    const merchant = await system.newMerchant();
    const paid = await newSession(merchant);
    const { link, attemptId } = await buyer.start(paid);
    const back = await buyer.answer(link, '20000002');
    const returned = await buyer.returnTo(back);
    assert.match(returned.html, /Pay with Flouci/);
    assert.match(returned.html, /Card number/);
    let read = await session(merchant, paid.id);
    assert.deepEqual([read.status, read.attempts[0]?.failure_code, read.attempts[0]?.payment_method_type], ['PENDING', 'wallet_declined', 'flouci']);
    const card = await payOnPage(paid.checkout_url ?? '', { card_number: '4242424242424242' });
    assert.ok(card.status < 400, card.html.slice(0, 200));
    await buyer.returnTo(new URL(`${paid.checkout_url ?? ''}/wallet/${attemptId}?payment_id=${link.split('/').pop() ?? ''}`));
    read = await session(merchant, paid.id);
    assert.equal(read.payment_method, 'card');
    assert.deepEqual(
      read.attempts.map((a) => [a.payment_method_type, a.status]),
      [
        ['flouci', 'FAILED'],
        ['card', 'SUCCEEDED'],
      ],
    );
  });

  it('when the buyer never completes at Flouci, then the attempt ends wallet_expired and the session can be paid again', async () => {
    const merchant = await system.newMerchant();
    const open = await newSession(merchant);
    await buyer.start(open);
    const ended = await buyer.until(async () => {
      const read = await session(merchant, open.id);
      return read.status === 'PENDING' ? read : undefined;
    }, 40_000);
    assert.deepEqual([ended.attempts[0]?.status, ended.attempts[0]?.failure_code], ['FAILED', 'wallet_expired']);
  });

  it('when a notice is forged (an unknown attempt, or a SUCCESS Flouci does not confirm), then it is answered and nothing is paid', async () => {
    const merchant = await system.newMerchant();
    const open = await newSession(merchant);
    const { link, attemptId } = await buyer.start(open);
    for (const attempt of [attemptId, 'pa_000000000000000000000000']) {
      const notice = await fetch(`${system.baseUrl}/checkout/wallet-notices/flouci/${attempt}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ payment_id: link.split('/').pop(), status: 'SUCCESS' }),
      });
      assert.equal(notice.status, 200, await notice.text());
    }
    const read = await session(merchant, open.id);
    assert.deepEqual([read.status, read.attempts[0]?.status], ['PROCESSING', 'PROCESSING']);
  });

  it("when a buyer comes back naming another session's attempt, then neither session is paid by it", async () => {
    const merchant = await system.newMerchant();
    const [mine, theirs] = await Promise.all([newSession(merchant), newSession(merchant)]);
    const { link, attemptId } = await buyer.start(theirs);
    await buyer.answer(link, '22123456');
    await buyer.returnTo(new URL(`${mine.checkout_url ?? ''}/wallet/${attemptId}`));
    assert.equal((await session(merchant, mine.id)).status, 'CREATED');
    // Their own return still records their payment.
    await buyer.returnTo(new URL(`${theirs.checkout_url ?? ''}/wallet/${attemptId}`));
    assert.equal((await session(merchant, theirs.id)).status, 'SUCCEEDED');
  });

  it('when a live merchant has no Flouci keys, then its page offers no Flouci, and a forced post starts no attempt', async () => {
    const merchant = await system.newMerchant();
    const liveKey = await system.approveLive(merchant.merchantId, { terminal: true });
    const live = await newSession(merchant, {}, liveKey);
    const page = await (await fetch(live.checkout_url ?? '', { headers: { 'accept-language': 'en' } })).text();
    assert.doesNotMatch(page, /Pay with Flouci/);
    const forced = await fetch(`${live.checkout_url ?? ''}/wallet/flouci`, { method: 'POST', body: new URLSearchParams({ language: 'en' }), redirect: 'manual' });
    await forced.arrayBuffer();
    const read = await session(merchant, live.id, liveKey);
    assert.deepEqual([read.status, read.attempts.length], ['CREATED', 0]);
  });
});
