/**
 * The webhook endpoints a merchant manages (issue 19) on the dashboard's
 * Webhooks page (D14), in Chromium against the real services: every change is
 * the API's own command, so each is checked where it takes effect (the API's
 * list, the webhooks a receiver gets, the audit log), and a refusal is the
 * API's problem, word for word. Lifetimes are shortened through configuration:
 * retries after 1 s, an endpoint failing for 2 s is disabled, sweeps every second,
 * one event per replay page.
 */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { newId, type SessionEventData, type Envelope, type WebhookDelivery, type WebhookDeliveryList, type WebhookEndpoint, type WebhookEndpointList, type WebhookEndpointWithSecret, type WebhookEventType } from '@gateway/contracts';
import { eventEnvelope } from '@gateway/messaging';
import { verifySignature } from '@gateway/sdk';
import { launchBrowser, type Merchant, pollUntil, signInToDashboard, type TestBrowser, TestSystem, WebhookReceiver } from '@gateway/testkit';
import { snap } from './screenshots.js';

const PASSWORD = 'correct horse battery staple';

const DISPATCHER_ENV = {
  WEBHOOK_RETRY_DELAYS_SECONDS: '1,1,1',
  SWEEP_INTERVAL_SECONDS: '1',
  WEBHOOK_ENDPOINT_DISABLE_AFTER_SECONDS: '2',
  WEBHOOK_REPLAY_BATCH: '1',
};

type Problem = { detail: string; errors?: { field: string; code: string; message: string }[] };

/** A session event of `merchantId` as the session service announces it, for the dispatcher to turn into webhooks. */
function sessionEvent(type: WebhookEventType, merchantId: string): Envelope<SessionEventData> {
  const sessionId = newId('ps');
  return eventEnvelope(
    type,
    {
      merchant_id: merchantId,
      webhook_url: '',
      session: {
        id: sessionId,
        order_number: 'TST-WEB123',
        merchant_reference: `ref-${sessionId}`,
        order_id: '',
        amount: '125.500',
        currency: 'TND',
        description: 'Two mugs',
        status: type === 'session.succeeded' ? 'SUCCEEDED' : 'PENDING',
        livemode: false,
        buyer: { first_name: 'Amina', last_name: 'Ben Salah', email: 'amina@example.tn', phone: '' },
        items: [],
        metadata: {},
        original: { amount: '125.500', currency: 'TND', rate: '1.000000' },
      },
    },
    newId('cmd'),
  );
}

describe('webhook endpoints in the merchant dashboard, in a browser', function () {
  this.timeout(180_000);
  let system: TestSystem;
  let browser: TestBrowser;
  let receiver: WebhookReceiver;

  before(async () => {
    system = await TestSystem.start({
      services: ['api-gateway', 'session', 'webhook-dispatcher', 'dashboard'],
      readyTimeoutMs: 60_000,
      serviceEnv: { 'webhook-dispatcher': DISPATCHER_ENV },
    });
    browser = await launchBrowser();
    // Paths under /failing/ fail every attempt; every other path takes the webhook.
    receiver = await WebhookReceiver.start((request) => ({ status: request.path.startsWith('/failing/') ? 500 : 200 }));
  });

  after(async () => {
    await browser?.close();
    await receiver?.close();
    await system?.shutdown();
  });

  const userOf = (merchant: Merchant, role: 'owner' | 'developer' | 'viewer') => system.dashboardUser(merchant.merchantId, role, PASSWORD);

  const signedIn = (email: string) => signInToDashboard(browser, system.baseUrl, email, PASSWORD);

  async function webhooksPage(email: string): Promise<Page> {
    const page = await signedIn(email);
    await page.goto(`${system.baseUrl}/dashboard/webhooks`);
    await page.getByRole('heading', { name: 'Webhook endpoints' }).waitFor();
    return page;
  }

  /** An endpoint's rows on the page: what it is, then its buttons. */
  const rowOf = (page: Page, url: string) => page.locator('tbody[data-endpoint]').filter({ hasText: url });

  async function shownSecret(page: Page): Promise<string> {
    return (await page.locator('#shown-secret').textContent())?.trim() ?? '';
  }

  async function listed(merchant: Merchant): Promise<WebhookEndpoint[]> {
    const res = await system.api(merchant.testKey).get<WebhookEndpointList>('/gateway/webhook_endpoints/');
    assert.equal(res.status, 200, res.text);
    return res.body.data;
  }

  async function createdByApi(merchant: Merchant, body: Record<string, unknown>): Promise<WebhookEndpointWithSecret> {
    const res = await system.api(merchant.testKey).post<WebhookEndpointWithSecret>('/gateway/webhook_endpoints/', body);
    assert.equal(res.status, 201, res.text);
    return res.body;
  }

  async function auditOf(merchantId: string, action: string, outcome: string, target?: string): Promise<void> {
    await pollUntil(
      async () => {
        const audit = (await system.admin(['audit', 'list', '--merchant', merchantId])) as { data: { action: string; outcome: string; target: string | null }[] };
        return audit.data.some((e) => e.action === action && e.outcome === outcome && (target === undefined || e.target === target));
      },
      10_000,
      `${action} ${outcome} in the audit log`,
    );
  }

  it('when a developer adds an endpoint with two events, then the API lists it as the page shows it, and its secret signs the webhooks it gets', async () => {
    const merchant = await system.newMerchant();
    const page = await webhooksPage(await userOf(merchant, 'developer'));
    const url = receiver.url(`/added-${merchant.merchantId}`);
    await page.getByLabel('Endpoint URL').fill(url);
    await page.getByRole('checkbox', { name: 'session.succeeded' }).check();
    await page.getByRole('checkbox', { name: 'refund.created' }).check();
    await page.getByLabel('Description').fill('Order system');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const secret = await shownSecret(page);
    assert.match(secret, /^whsec_/);

    const [endpoint, ...others] = await listed(merchant);
    assert.ok(endpoint);
    assert.equal(others.length, 0);
    assert.deepEqual(
      [endpoint.url, endpoint.enabled_events, endpoint.description, endpoint.status, endpoint.livemode],
      [url, ['session.succeeded', 'refund.created'], 'Order system', 'enabled', false],
    );
    const row = rowOf(page, url);
    const cells = (await row.getByRole('cell').allTextContents()).map((text) => text.trim());
    assert.ok(cells[0]?.startsWith(url), `the URL: ${cells[0]}`);
    assert.equal(cells[1], 'session.succeeded, refund.created');
    assert.equal(cells[2], 'enabled');
    assert.equal(await row.locator('time').getAttribute('datetime'), endpoint.created_at);
    await auditOf(merchant.merchantId, 'webhook_endpoint.create', 'succeeded');

    // It gets the events it asked for, signed with the secret the page showed; not the others.
    const wanted = sessionEvent('session.succeeded', merchant.merchantId);
    const unwanted = sessionEvent('session.failed', merchant.merchantId);
    await system.publishEvents([unwanted, wanted]);
    await receiver.waitFor((all) => all.some((r) => r.eventId === wanted.id), 15_000);
    const got = receiver.forEvent(wanted.id)[0];
    assert.ok(got && verifySignature(got.raw, got.signature, secret));
    assert.equal(receiver.forEvent(unwanted.id).length, 0);
  });

  it('when the URL or the events are refused, then the page shows the API’s problem for the same input, keeps what was typed, and nothing is made', async () => {
    const merchant = await system.newMerchant();
    const page = await webhooksPage(await userOf(merchant, 'developer'));
    const inputs: { url: string; events: string[] }[] = [
      { url: 'ftp://hooks.example.tn/events', events: ['session.succeeded'] },
      { url: 'hooks.example.tn/events', events: ['session.succeeded'] },
      { url: 'https://hooks.example.tn/events', events: [] },
    ];
    for (const input of inputs) {
      const api = await system.api(merchant.testKey).post<Problem>('/gateway/webhook_endpoints/', { url: input.url, enabled_events: input.events });
      assert.equal(api.status, 422, api.text);
      const messages = (api.body.errors ?? []).map((e) => e.message);
      assert.ok(messages.length > 0, api.text);

      await page.getByLabel('Endpoint URL').fill(input.url);
      for (const event of input.events) await page.getByRole('checkbox', { name: event }).check();
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      const alert = page.getByRole('alert');
      await alert.waitFor();
      const shown = (await alert.textContent()) ?? '';
      assert.ok(shown.includes(api.body.detail), `the API's detail "${api.body.detail}" in "${shown}"`);
      for (const message of messages) assert.ok(shown.includes(message), `the API's "${message}" in "${shown}"`);
      assert.equal(await page.getByLabel('Endpoint URL').inputValue(), input.url, 'the URL as typed');
      for (const event of input.events) assert.ok(await page.getByRole('checkbox', { name: event }).isChecked(), `${event} still chosen`);
      await page.goto(`${system.baseUrl}/dashboard/webhooks`);
    }
    assert.deepEqual(await listed(merchant), []);
    assert.equal(await page.locator('tbody[data-endpoint]').count(), 0, 'no endpoint on the page');
    await auditOf(merchant.merchantId, 'webhook_endpoint.create', 'validation-error');
  });

  it('when an endpoint is disabled from the page, then a banner names it and says how to enable it, and Enable brings it back, at the API too', async () => {
    const merchant = await system.newMerchant();
    const endpoint = await createdByApi(merchant, { url: receiver.url(`/disabled-${merchant.merchantId}`), enabled_events: ['*'] });
    const page = await webhooksPage(await userOf(merchant, 'developer'));
    const row = rowOf(page, endpoint.url);
    assert.equal((await row.locator('[data-field="status"]').textContent())?.trim(), 'enabled');
    assert.equal(await page.getByText('Webhook endpoint disabled').count(), 0);

    await row.getByRole('button', { name: 'Disable' }).click();
    await page.getByText(`Endpoint ${endpoint.url} disabled.`).waitFor();
    const banner = page.getByRole('status').filter({ hasText: 'Webhook endpoint disabled' });
    assert.ok((await banner.textContent())?.includes(endpoint.url), 'the banner names the endpoint');
    assert.ok((await banner.textContent())?.includes('Choose "Enable" on its row'));
    const read = (await listed(merchant))[0];
    assert.deepEqual([read?.status, read?.disabled_reason], ['disabled', 'merchant']);

    await rowOf(page, endpoint.url).getByRole('button', { name: 'Enable' }).click();
    await page.getByText(`Endpoint ${endpoint.url} enabled.`).waitFor();
    assert.equal(await page.getByText('Webhook endpoint disabled').count(), 0, 'no banner once enabled');
    assert.equal((await listed(merchant))[0]?.status, 'enabled');
    await auditOf(merchant.merchantId, 'webhook_endpoint.update', 'succeeded', endpoint.id);
  });

  it('when the dispatcher disables an endpoint that fails every attempt, then the banner says why and a reader is told who can enable it', async () => {
    const merchant = await system.newMerchant();
    const endpoint = await createdByApi(merchant, { url: receiver.url(`/failing/${merchant.merchantId}`), enabled_events: ['session.succeeded'] });
    await system.publishEvents([sessionEvent('session.succeeded', merchant.merchantId)]);
    await pollUntil(async () => (await listed(merchant))[0]?.disabled_reason === 'failing', 20_000, 'the endpoint disabled for failing');

    const developer = await webhooksPage(await userOf(merchant, 'developer'));
    const banner = developer.getByRole('status').filter({ hasText: 'Webhook endpoint disabled' });
    const said = (await banner.textContent()) ?? '';
    assert.ok(said.includes(endpoint.url), said);
    assert.ok(said.includes('Every delivery to it failed for too long'), said);
    assert.ok(said.includes('Fix the receiver, then choose "Enable"'), said);
    assert.equal((await rowOf(developer, endpoint.url).locator('[data-field="status"]').textContent())?.trim(), 'disabled');
    await snap(developer, 'dashboard-webhook-endpoints');

    const reader = await webhooksPage(await userOf(merchant, 'viewer'));
    const readerBanner = (await reader.getByRole('status').filter({ hasText: 'Webhook endpoint disabled' }).textContent()) ?? '';
    assert.ok(readerBanner.includes('A developer or an owner of the account can enable it again.'), readerBanner);
  });

  it('when a developer reveals an endpoint’s secret, then it is its secret, audited; a reader sees the list but no change, and is refused the reveal', async () => {
    const merchant = await system.newMerchant();
    const endpoint = await createdByApi(merchant, { url: 'https://hooks.example.tn/reveal', enabled_events: ['session.succeeded', 'session.failed'] });
    const developer = await webhooksPage(await userOf(merchant, 'developer'));
    assert.ok(!(await developer.content()).includes(endpoint.secret), 'no secret before Reveal');
    await rowOf(developer, endpoint.url).getByRole('button', { name: 'Reveal' }).click();
    assert.equal(await shownSecret(developer), endpoint.secret);
    await auditOf(merchant.merchantId, 'webhook_endpoint.reveal_secret', 'succeeded', endpoint.id);

    const reader = await webhooksPage(await userOf(merchant, 'viewer'));
    const row = rowOf(reader, endpoint.url);
    assert.equal((await row.getByRole('cell').nth(1).textContent())?.trim(), 'session.succeeded, session.failed');
    for (const name of ['Reveal', 'Rotate secret', 'Disable', 'Delete', 'Replay']) assert.equal(await reader.getByRole('button', { name }).count(), 0, `no ${name} for a reader`);
    assert.equal(await reader.getByRole('button', { name: 'Add endpoint' }).count(), 0);
    const csrf = await reader.locator('input[name="_csrf"]').first().inputValue();
    const refused = await reader.request.post(`${system.baseUrl}/dashboard/webhooks/endpoints/${endpoint.id}/secret/reveal`, { form: { _csrf: csrf } });
    assert.equal(refused.status(), 403);
    const body = await refused.text();
    assert.match(body, /may not do this/);
    assert.ok(!body.includes(endpoint.secret));
  });

  it('when a developer rotates an endpoint’s secret, then a new one is shown, Reveal gives it, and webhooks carry both signatures during the overlap', async () => {
    const merchant = await system.newMerchant();
    const endpoint = await createdByApi(merchant, { url: receiver.url(`/rotated-${merchant.merchantId}`), enabled_events: ['*'] });
    const page = await webhooksPage(await userOf(merchant, 'owner'));
    await rowOf(page, endpoint.url).getByRole('button', { name: 'Rotate secret' }).click();
    const rotated = await shownSecret(page);
    assert.match(rotated, /^whsec_/);
    assert.notEqual(rotated, endpoint.secret);
    await rowOf(page, endpoint.url).getByRole('button', { name: 'Reveal' }).click();
    assert.equal(await shownSecret(page), rotated);

    const event = sessionEvent('session.succeeded', merchant.merchantId);
    await system.publishEvents([event]);
    await receiver.waitFor((all) => all.some((r) => r.eventId === event.id), 15_000);
    const got = receiver.forEvent(event.id)[0];
    assert.ok(got);
    assert.equal((got.signature.match(/v1=/g) ?? []).length, 2, got.signature);
    assert.ok(verifySignature(got.raw, got.signature, rotated));
    await auditOf(merchant.merchantId, 'webhook_endpoint.roll_secret', 'succeeded', endpoint.id);
  });

  it('when a developer replays an endpoint’s events since a time, a page at a time, then they are queued and sent again with their ids, as the API’s delivery list shows', async () => {
    const merchant = await system.newMerchant();
    const endpoint = await createdByApi(merchant, { url: receiver.url(`/replayed-${merchant.merchantId}`), enabled_events: ['*'] });
    // The form takes whole minutes, in UTC: a minute before now covers the events sent next.
    const since = new Date(Date.now() - 60_000).toISOString().slice(0, 16);
    const events = [sessionEvent('session.succeeded', merchant.merchantId), sessionEvent('session.failed', merchant.merchantId)];
    await system.publishEvents(events);
    await receiver.waitFor((all) => events.every((e) => all.some((r) => r.eventId === e.id)), 15_000);

    const page = await webhooksPage(await userOf(merchant, 'developer'));
    const row = rowOf(page, endpoint.url);
    await row.getByLabel('Replay since (UTC)').fill(since);
    await row.getByRole('button', { name: 'Replay' }).click();
    // One event a page (WEBHOOK_REPLAY_BATCH): the page offers the next one, as the API's next_since and next_starting_after.
    await page.getByRole('status').filter({ hasText: 'Events queued to be sent again: 1. More are left.' }).waitFor();
    await page.getByRole('button', { name: 'Replay the next ones' }).click();
    await page.getByRole('status').filter({ hasText: 'Events queued to be sent again: 1.' }).waitFor();
    assert.equal(await page.getByText('More are left.').count(), 0);

    await receiver.waitFor((all) => events.every((e) => all.filter((r) => r.eventId === e.id).length === 2), 15_000);
    for (const e of events) {
      const [first, again] = receiver.forEvent(e.id);
      assert.ok(first && again && again.raw.equals(first.raw), 'the same body again');
    }
    const res = await system.api(merchant.testKey).get<WebhookDeliveryList>('/gateway/webhooks/?limit=100');
    const toEndpoint: WebhookDelivery[] = res.body.data.filter((d) => d.endpoint_id === endpoint.id);
    assert.deepEqual(toEndpoint.map((d) => d.attempt_number).sort(), [1, 1, 2, 2]);
    await auditOf(merchant.merchantId, 'webhook_endpoint.replay', 'succeeded', endpoint.id);

    // A time the API refuses comes back as its problem.
    await rowOf(page, endpoint.url).getByLabel('Replay since (UTC)').fill('2001-01-01T00:00');
    await rowOf(page, endpoint.url).getByRole('button', { name: 'Replay' }).click();
    await page.getByRole('alert').filter({ hasText: 'since must be within the last' }).waitFor();
  });

  it('when a developer deletes an endpoint, then the API no longer lists it', async () => {
    const merchant = await system.newMerchant();
    const endpoint = await createdByApi(merchant, { url: 'https://hooks.example.tn/deleted', enabled_events: ['*'] });
    const page = await webhooksPage(await userOf(merchant, 'developer'));
    await rowOf(page, endpoint.url).getByRole('button', { name: 'Delete' }).click();
    await page.getByText(`Endpoint ${endpoint.id} deleted.`).waitFor();
    assert.deepEqual(await listed(merchant), []);
    assert.equal(await rowOf(page, endpoint.url).count(), 0);
  });
});
