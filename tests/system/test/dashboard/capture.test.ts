/**
 * Authorize now, capture later (D22) from the merchant dashboard, in Chromium
 * against the real services and the sandbox acquirer: a manual session paid on
 * the hosted page is AUTHORIZED, shown with its hold, captured in part or in
 * full or voided from its page, each checked where it takes effect (the API,
 * the events, the acquirer's order, the audit log), not only on the page.
 */
import assert from 'node:assert/strict';
import type { Envelope, SessionEventData } from '@gateway/contracts';
import type { Page } from 'playwright-core';
import { type EventCapture, launchBrowser, type Merchant, pollUntil, sessionRequest, signInToDashboard, type TestBrowser, TestSystem } from '@gateway/testkit';
import { payWith } from '../checkout/browser.js';

const PASSWORD = 'correct horse battery staple';
/** D8's capture cards: held as 4242 is, then the deposit is refused (errorCode 5), or left unconfirmed (errorCode 7). */
const CAPTURE_REFUSED = '4000 0000 0000 7007';
const CAPTURE_UNCONFIRMED = '4000 0000 0000 7015';

type Detail = {
  id: string;
  status: string;
  order_number: string;
  checkout_url: string;
  capture_method: string;
  amount_authorized: string;
  amount_captured: string;
  amount_refunded: string;
};

describe('capture and void from the dashboard (D22), in a browser', function () {
  this.timeout(180_000);
  let system: TestSystem;
  let browser: TestBrowser;
  let events: EventCapture;

  before(async () => {
    system = await TestSystem.start({ readyTimeoutMs: 60_000 });
    browser = await launchBrowser();
    events = await system.captureEvents(['session.*']);
  });

  after(async () => {
    await events?.stop();
    await browser?.close();
    await system?.shutdown();
  });

  const ofSession = (id: string) => (e: Envelope<SessionEventData>) => e.data.session.id === id;
  const read = async (merchant: Merchant, id: string) => (await system.api(merchant.testKey).get<Detail>(`/gateway/sessions/${id}/`)).body;
  /** The sandbox's order of a session's first attempt, named as the adapter names test-mode orders (acquirerOrderNumber). */
  const acquirerOrder = (merchant: Merchant, session: Detail) => system.sandboxOrder(`${merchant.merchantId.slice(-8)}-${session.order_number}-1`);
  const shown = async (page: Page, name: string) => (await page.locator(`[data-field="${name}"]`).textContent())?.trim();

  const userOf = (merchant: Merchant, role: 'owner' | 'developer' | 'viewer') => system.dashboardUser(merchant.merchantId, role, PASSWORD);

  const signedIn = (email: string) => signInToDashboard(browser, system.baseUrl, email, PASSWORD);

  /** A manual session created through the API and paid on the hosted page in Chromium (4242 unless said): the buyer is told it is paid, the session is AUTHORIZED. */
  async function heldInBrowser(merchant: Merchant, amount = '125.500', card = '4242 4242 4242 4242'): Promise<Detail> {
    const created = await system.api(merchant.testKey).post<Detail>('/gateway/sessions/', sessionRequest({ amount, capture_method: 'manual', locale: 'en' }));
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.capture_method, 'manual');
    const buyer = await browser.newPage();
    await buyer.goto(created.body.checkout_url);
    await payWith(buyer, { number: card });
    await buyer.getByRole('heading', { name: 'Payment successful' }).waitFor();
    await buyer.close();
    const held = await read(merchant, created.body.id);
    assert.deepEqual([held.status, held.amount_authorized, held.amount_captured], ['AUTHORIZED', amount, '']);
    return held;
  }

  async function openPayment(page: Page, session: Detail): Promise<void> {
    await page.goto(`${system.baseUrl}/dashboard/payments/${session.id}`);
    await page.getByRole('heading', { name: session.order_number }).waitFor();
  }

  async function auditOf(merchantId: string, action: string, outcome: string): Promise<void> {
    await pollUntil(
      async () => {
        const audit = (await system.admin(['audit', 'list', '--merchant', merchantId])) as { data: { action: string; outcome: string }[] };
        return audit.data.some((e) => e.action === action && e.outcome === outcome);
      },
      10_000,
      `${action} ${outcome} in the audit log`,
    );
  }

  it('when part of an authorized payment is captured from its page, then it is SUCCEEDED with that amount captured, and refunds from the page stop at it', async () => {
    const merchant = await system.newMerchant();
    const session = await heldInBrowser(merchant);
    const [authorized] = await events.waitFor<SessionEventData>('session.authorized', ofSession(session.id));
    assert.equal(authorized?.data.session.amount_authorized, '125.500');

    // The list's status filter offers AUTHORIZED, and finds it.
    const page = await signedIn(await userOf(merchant, 'developer'));
    await page.getByRole('link', { name: 'Payments', exact: true }).click();
    await page.getByLabel('Status').selectOption('AUTHORIZED');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/status=AUTHORIZED/);
    await page.getByRole('link', { name: session.order_number }).click();
    await page.getByRole('heading', { name: session.order_number }).waitFor();
    assert.equal(await shown(page, 'status'), 'AUTHORIZED');
    assert.equal(await shown(page, 'capture_method'), 'Manual');
    assert.equal(await shown(page, 'amount_authorized'), '125.500 TND');
    assert.equal(await shown(page, 'amount_captured'), '—');
    assert.equal(await page.getByLabel('Amount').getAttribute('placeholder'), '125.500');
    assert.equal(await page.getByRole('button', { name: 'Refund' }).count(), 0, 'nothing to refund before the capture');

    await page.getByLabel('Amount').fill('40.000');
    await page.getByRole('button', { name: 'Capture', exact: true }).click();
    await page.getByText('Captured 40.000 TND.').waitFor();
    assert.equal(await shown(page, 'status'), 'SUCCEEDED');
    assert.equal(await shown(page, 'amount_authorized'), '125.500 TND');
    assert.equal(await shown(page, 'amount_captured'), '40.000 TND');
    assert.equal(await page.getByRole('button', { name: 'Capture', exact: true }).count(), 0, 'one capture per session');
    const captured = await read(merchant, session.id);
    assert.deepEqual([captured.status, captured.amount_captured], ['SUCCEEDED', '40.000']);
    const [succeeded] = await events.waitFor<SessionEventData>('session.succeeded', ofSession(session.id));
    assert.equal(succeeded?.data.session.amount_captured, '40.000');
    const order = await acquirerOrder(merchant, session);
    assert.deepEqual([order.orderStatus, order.paymentAmountInfo?.depositedAmount], [2, 40000]);
    await auditOf(merchant.merchantId, 'session.capture', 'succeeded');

    // More than was captured is the refund service's refusal, in its words, and refunds nothing.
    await page.getByLabel('Amount').fill('50.000');
    await page.getByLabel('Reason').fill('Too much');
    await page.getByRole('button', { name: 'Refund' }).click();
    await page.getByRole('alert').getByText('amount: amount is more than is left to refund (40.000 TND).').waitFor();
    assert.equal((await read(merchant, session.id)).amount_refunded, '0.000');

    // A full refund is what was captured, not what was held.
    await page.getByLabel('Amount').fill('');
    await page.getByLabel('Reason').fill('Order returned');
    await page.getByRole('button', { name: 'Refund' }).click();
    await page.getByText('Refunded 40.000 TND.').waitFor();
    assert.equal(await shown(page, 'amount_refunded'), '40.000 TND');
    assert.equal((await read(merchant, session.id)).amount_refunded, '40.000');
    const refunds = await system.api(merchant.testKey).get<{ data: { amount: string; status: string }[] }>(`/gateway/sessions/${session.id}/refunds/`);
    assert.deepEqual(
      refunds.body.data.map((r) => [r.amount, r.status]),
      [['40.000', 'succeeded']],
    );
  });

  it('when a capture asks for more than the hold, then the page shows the API\'s validation message and nothing changes; with the amount left empty, then the whole hold is captured', async () => {
    const merchant = await system.newMerchant();
    const session = await heldInBrowser(merchant);
    const page = await signedIn(await userOf(merchant, 'owner'));
    await openPayment(page, session);

    await page.getByLabel('Amount').fill('125.501');
    const [refusal] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith(`/payments/${session.id}/capture`)),
      page.getByRole('button', { name: 'Capture', exact: true }).click(),
    ]);
    assert.equal(refusal.status(), 422);
    await page.getByRole('alert').getByText('amount: amount is more than the authorized amount (125.500 TND).').waitFor();
    assert.equal(await shown(page, 'status'), 'AUTHORIZED');
    assert.equal(await shown(page, 'amount_captured'), '—');
    const unchanged = await read(merchant, session.id);
    assert.deepEqual([unchanged.status, unchanged.amount_captured], ['AUTHORIZED', '']);
    assert.equal((await acquirerOrder(merchant, session)).paymentAmountInfo?.depositedAmount, 0);
    await auditOf(merchant.merchantId, 'session.capture', 'validation-error');

    await page.getByLabel('Amount').fill('');
    await page.getByRole('button', { name: 'Capture', exact: true }).click();
    await page.getByText('Captured 125.500 TND.').waitFor();
    assert.equal(await shown(page, 'status'), 'SUCCEEDED');
    assert.equal(await shown(page, 'amount_captured'), '125.500 TND');
    const captured = await read(merchant, session.id);
    assert.deepEqual([captured.status, captured.amount_authorized, captured.amount_captured], ['SUCCEEDED', '125.500', '125.500']);
    const order = await acquirerOrder(merchant, session);
    assert.deepEqual([order.orderStatus, order.paymentAmountInfo?.depositedAmount], [2, 125500]);
  });

  it('when an authorized payment is voided from its page, then it is CANCELED, announced, and the acquirer releases the hold', async () => {
    const merchant = await system.newMerchant();
    const session = await heldInBrowser(merchant, '80.250');
    const page = await signedIn(await userOf(merchant, 'developer'));
    await openPayment(page, session);

    await page.getByRole('button', { name: 'Void' }).click();
    await page.getByText('Authorization voided: the hold of 80.250 TND is being released to the buyer.').waitFor();
    assert.equal(await shown(page, 'status'), 'CANCELED');
    assert.equal(await page.getByRole('button', { name: 'Void' }).count(), 0);
    assert.equal(await page.getByRole('button', { name: 'Capture', exact: true }).count(), 0);
    const voided = await read(merchant, session.id);
    assert.deepEqual([voided.status, voided.amount_captured], ['CANCELED', '']);
    await events.waitFor<SessionEventData>('session.canceled', ofSession(session.id));
    assert.equal(events.of('session.succeeded', ofSession(session.id)).length, 0);
    await pollUntil(async () => (await acquirerOrder(merchant, session)).orderStatus === 3, 10_000, 'the hold to be released (orderStatus 3)');
    await auditOf(merchant.merchantId, 'session.cancel', 'succeeded');
  });

  it('when the acquirer refuses a capture or leaves it unconfirmed, then the payment page says so with its status (422 capture-failed, 502 processor-unavailable) and the payment stays AUTHORIZED', async () => {
    const merchant = await system.newMerchant();
    const refused = await heldInBrowser(merchant, '125.500', CAPTURE_REFUSED);
    const unconfirmed = await heldInBrowser(merchant, '125.500', CAPTURE_UNCONFIRMED);
    const page = await signedIn(await userOf(merchant, 'developer'));
    const cases: [Detail, number, string][] = [
      [refused, 422, 'The card processor refused the capture'],
      [unconfirmed, 502, 'the session stays AUTHORIZED'],
    ];
    for (const [session, status, words] of cases) {
      await openPayment(page, session);
      const [answer] = await Promise.all([
        page.waitForResponse((r) => r.url().endsWith(`/payments/${session.id}/capture`)),
        page.getByRole('button', { name: 'Capture', exact: true }).click(),
      ]);
      assert.equal(answer.status(), status, session.id);
      // The payment's own page, with the refusal on it, not an error page.
      await page.getByRole('alert').getByText(words).waitFor();
      assert.equal(await shown(page, 'status'), 'AUTHORIZED');
      assert.equal(await shown(page, 'amount_captured'), '—');
      assert.equal((await read(merchant, session.id)).status, 'AUTHORIZED');
    }
    await auditOf(merchant.merchantId, 'session.capture', 'capture-failed');
    await auditOf(merchant.merchantId, 'session.capture', 'processor-unavailable');
  });

  it('when a viewer opens an authorized payment, then it shows its hold but offers neither Capture nor Void; in French a developer is offered both', async () => {
    const merchant = await system.newMerchant();
    const session = await heldInBrowser(merchant);
    const viewer = await signedIn(await userOf(merchant, 'viewer'));
    await openPayment(viewer, session);
    assert.equal(await shown(viewer, 'amount_authorized'), '125.500 TND');
    assert.equal(await viewer.getByRole('button', { name: 'Capture', exact: true }).count(), 0);
    assert.equal(await viewer.getByRole('button', { name: 'Void' }).count(), 0);

    const developer = await signedIn(await userOf(merchant, 'developer'));
    await developer.getByRole('link', { name: 'Français' }).click();
    await developer.getByRole('heading', { name: 'Accueil' }).waitFor();
    await openPayment(developer, session);
    assert.equal(await shown(developer, 'capture_method'), 'Manuel');
    assert.ok(await developer.getByRole('button', { name: 'Capturer', exact: true }).isVisible());
    assert.ok(await developer.getByRole('button', { name: "Annuler l'autorisation" }).isVisible());
    assert.equal((await read(merchant, session.id)).status, 'AUTHORIZED', 'looking changes nothing');
  });

  it("when a suspended merchant's developer captures, then it is refused as the API refuses it (403), recorded, and the hold stands", async () => {
    const merchant = await system.newMerchant();
    const session = await heldInBrowser(merchant);
    const page = await signedIn(await userOf(merchant, 'developer'));
    await openPayment(page, session);

    await system.admin(['merchant', 'suspend', merchant.merchantId]);
    const [refusal] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith(`/payments/${session.id}/capture`)),
      page.getByRole('button', { name: 'Capture', exact: true }).click(),
    ]);
    assert.equal(refusal.status(), 403);
    await page.getByRole('alert').getByText('This merchant account is suspended.').waitFor();
    await system.admin(['merchant', 'reactivate', merchant.merchantId]);
    assert.equal((await read(merchant, session.id)).status, 'AUTHORIZED');
    await auditOf(merchant.merchantId, 'session.capture', 'forbidden');
  });
});
