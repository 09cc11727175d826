/**
 * A suspended merchant's open checkout links: the session service takes no
 * payment on them (whichever door the payment comes through), the hosted page
 * says so in the buyer's language, and nothing reaches the acquirer. A
 * reactivated merchant's links take payments again.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { payOnPage, pollUntil, sessionRequest, TestSystem, type Merchant } from '@gateway/testkit';

type Created = { id: string; order_number: string; checkout_url: string };

const BACKFILL = fileURLToPath(new URL('../../../../../services/api-gateway/migrations/006_merchant_standing.sql', import.meta.url));

describe('A suspended merchant’s checkout links', function () {
  this.timeout(90_000);
  let system: TestSystem;

  before(async () => {
    system = await TestSystem.start();
  });
  after(async () => {
    await system?.shutdown();
  });

  async function openSession(): Promise<{ merchant: Merchant; created: Created }> {
    const merchant = await system.newMerchant();
    const answer = await system.api(merchant.testKey).post<Created>('/gateway/sessions/', sessionRequest({ amount: '40.000' }));
    assert.equal(answer.status, 201, answer.text);
    return { merchant, created: answer.body };
  }

  async function page(url: string, language = 'en'): Promise<{ status: number; html: string }> {
    const answer = await fetch(url, { headers: { 'accept-language': language } });
    return { status: answer.status, html: await answer.text() };
  }

  async function stored(sessionId: string): Promise<{ status: string; attempts_count: number }> {
    const [row] = await system.db.query<{ status: string; attempts_count: number }>('SELECT status, attempts_count FROM session.sessions WHERE id = $1', [sessionId]);
    assert.ok(row);
    return row;
  }

  /** What the sandbox acquirer knows of the session's first attempt: error 6 is "no such order". */
  async function acquirerError(merchant: Merchant, created: Created): Promise<string> {
    return (await system.sandboxOrder(`${merchant.merchantId.slice(-8)}-${created.order_number}-1`)).errorCode;
  }

  it('when the merchant is suspended (gateway-admin), then its open link shows a refusal in the buyer’s language, a card posted anyway is refused, and the acquirer was never asked; reactivated, it pays', async () => {
    const { merchant, created } = await openSession();
    assert.equal((await page(created.checkout_url)).status, 200, 'the card form before the suspension');

    await system.admin(['merchant', 'suspend', merchant.merchantId]);
    await pollUntil(async () => (await page(created.checkout_url)).status === 403, 10_000, 'the page refusing the suspended merchant');
    const english = await page(created.checkout_url);
    assert.match(english.html, /This merchant cannot take payments at the moment\. Nothing has been charged/);
    assert.doesNotMatch(english.html, /name="card_number"/, 'no card form');
    assert.match((await page(created.checkout_url, 'fr')).html, /Ce commerçant ne peut pas encaisser de paiement/);
    assert.match((await page(created.checkout_url, 'ar')).html, /لا يستطيع هذا التاجر تلقي المدفوعات حاليًا/);

    const paid = await payOnPage(created.checkout_url, { card_number: '4242424242424242' });
    assert.equal(paid.status, 403, paid.html);
    assert.match(paid.html, /Nothing has been charged/);
    assert.deepEqual(await stored(created.id), { status: 'CREATED', attempts_count: 0 });
    assert.equal(await acquirerError(merchant, created), '6', 'the acquirer never saw an order');

    await system.admin(['merchant', 'reactivate', merchant.merchantId]);
    await pollUntil(async () => (await page(created.checkout_url)).status === 200, 10_000, 'the page open again');
    const again = await payOnPage(created.checkout_url, { card_number: '4242424242424242' });
    assert.ok(again.status < 400, `${again.status}`);
    await pollUntil(async () => (await stored(created.id)).status === 'SUCCEEDED', 15_000, 'the payment after reactivation');
  });

  it('when a merchant was suspended before the session service kept merchants’ standing, then the api-gateway’s migration announces it, and its open links take no payment', async () => {
    const { merchant, created } = await openSession();
    // As an older version left it: suspended, and nothing announced.
    await system.db.query(`UPDATE api_gateway.merchants SET status = 'suspended' WHERE id = $1`, [merchant.merchantId]);
    assert.equal((await page(created.checkout_url)).status, 200, 'nothing announced yet');

    await system.db.query(`BEGIN; SET LOCAL search_path TO api_gateway; ${readFileSync(BACKFILL, 'utf8')} COMMIT;`);
    // The relay's backstop poll publishes rows it was not woken for.
    await pollUntil(async () => (await page(created.checkout_url)).status === 403, 10_000, 'the page refusing the merchant suspended before');
    const paid = await payOnPage(created.checkout_url, { card_number: '4242424242424242' });
    assert.equal(paid.status, 403, paid.html);
    assert.deepEqual(await stored(created.id), { status: 'CREATED', attempts_count: 0 });
    assert.equal(await acquirerError(merchant, created), '6');
  });
});
