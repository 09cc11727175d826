/**
 * Customers and saved cards (D24) across accounts and modes, and what comes
 * in: another merchant's or mode's customer or card through every door (API,
 * hosted page, dashboard), list cursors, webhooks of attach and detach,
 * payment links, odd create bodies, a body on DELETE, tampered saved-card forms.
 */
import assert from 'node:assert/strict';
import type { Customer, CustomerList, PaymentMethod, SessionDetail } from '@gateway/contracts';
import { payOnPage, sessionRequest, TestSystem, Visitor, WebhookReceiver, type Merchant } from '@gateway/testkit';
import { verifySignature } from '@gateway/sdk';
import { CustomerSteps, fieldsOf, type Problem } from './customer-steps.js';


const PASSWORD = 'correct horse battery staple';

describe('saved cards across accounts, modes and odd input (D24)', function () {
  this.timeout(120_000);
  let system: TestSystem;
  let steps: CustomerSteps;
  let receiver: WebhookReceiver;

  before(async () => {
    system = await TestSystem.start();
    steps = new CustomerSteps(system);
    receiver = await WebhookReceiver.start();
  });

  after(async () => {
    await receiver?.close();
    await system?.shutdown();
  });

  const charge = (key: string, body: Record<string, unknown>) =>
    system.api(key).post<SessionDetail & Problem>('/gateway/sessions/', { amount: '30.000', merchant_reference: `mit-${Math.random().toString(36).slice(2)}`, off_session: true, ...body });

  /** A merchant with a customer that has an off_session and an on_session card. */
  async function victim(): Promise<{ merchant: Merchant; customer: Customer; off: PaymentMethod; on: PaymentMethod }> {
    const merchant = await steps.newMerchant();
    const customer = await steps.newCustomer(merchant, { email: 'victim@example.tn', external_id: 'victim-1' });
    const off = await steps.saveCard(merchant, customer, '4242424242424242');
    const on = await steps.saveCard(merchant, customer, '5555555555554444', 'on_session');
    return { merchant, customer, off, on };
  }

  it("when another merchant names the customer or its cards through every API route, then each is not found and nothing changes", async () => {
    const { merchant, customer, off, on } = await victim();
    const stranger = await steps.newMerchant();
    const api = system.api(stranger.testKey);
    const answers: [string, number][] = [];
    for (const [method, path] of [
      ['GET', `/gateway/customers/${customer.id}/`],
      ['GET', `/gateway/customers/${customer.id}/payment_methods/`],
      ['DELETE', `/gateway/customers/${customer.id}/payment_methods/${off.id}/`],
      ['DELETE', `/gateway/customers/${customer.id}/`],
    ] as const) {
      answers.push([`${method} ${path}`, (await api.request(method, path)).status]);
    }
    assert.deepEqual(
      answers.map(([, status]) => status),
      [404, 404, 404, 404],
      JSON.stringify(answers),
    );
    // Its own customer's path with the victim's card id: not its card.
    const own = await steps.newCustomer(stranger);
    assert.equal((await api.request('DELETE', `/gateway/customers/${own.id}/payment_methods/${off.id}/`)).status, 404);
    // external_id and email filters find only the account's own.
    assert.deepEqual((await api.get<CustomerList>('/gateway/customers/?external_id=victim-1')).body.data, []);
    assert.deepEqual((await api.get<CustomerList>('/gateway/customers/?email=victim%40example.tn')).body.data, []);
    // The victim's cursor is not a cursor of the stranger's list.
    for (const cursor of ['starting_after', 'ending_before']) {
      const listed = await api.get<CustomerList & Problem>(`/gateway/customers/?${cursor}=${customer.id}`);
      assert.ok(listed.status >= 400 && listed.status < 500, `${cursor}: ${listed.status} ${listed.text}`);
    }
    // Sessions: neither its customer nor its cards.
    assert.deepEqual(fieldsOf((await charge(stranger.testKey, { customer: customer.id, payment_method: off.id })).body), ['customer:not_found']);
    assert.deepEqual(fieldsOf((await charge(stranger.testKey, { customer: own.id, payment_method: off.id })).body), ['payment_method:not_found']);
    const made = await api.post<Problem>('/gateway/sessions/', sessionRequest({ customer: customer.id }));
    assert.deepEqual([made.status, fieldsOf(made.body)], [422, ['customer:not_found']]);
    // One click on the stranger's own page with the victim's card.
    const page = await steps.newSession(stranger, { customer: own.id });
    await steps.payWithSavedCard(page, on.id, '123');
    await steps.payWithSavedCard(page, off.id, '123');
    assert.equal((await steps.session(stranger, page.id)).attempts.length, 0);
    // The same merchant, another of its customers' pages: not that customer's card either.
    const sibling = await steps.newCustomer(merchant);
    const siblingPage = await steps.newSession(merchant, { customer: sibling.id });
    await steps.payWithSavedCard(siblingPage, on.id, '123');
    assert.equal((await steps.session(merchant, siblingPage.id)).attempts.length, 0);
    assert.equal((await api.request('DELETE', `/gateway/customers/${sibling.id}/payment_methods/${on.id}/`)).status, 404);
    assert.equal((await system.api(merchant.testKey).request('DELETE', `/gateway/customers/${sibling.id}/payment_methods/${on.id}/`)).status, 404);
    assert.equal((await steps.cardsOf(merchant, customer)).length, 2, 'the victim keeps both cards');
    assert.equal((await steps.acquirerBindings(customer)).length, 2);
  });

  it('when live and test mode name each other\'s customers and cards, then each is not found', async () => {
    const merchant = await steps.newMerchant();
    const liveKey = await system.approveLive(merchant.merchantId, { terminal: true });
    const live = system.api(liveKey);
    const test = system.api(merchant.testKey);
    const liveCustomer = (await live.post<Customer>('/gateway/customers/', { external_id: 'both-1' })).body;
    assert.equal(liveCustomer.livemode, true);
    const testCustomer = (await test.post<Customer>('/gateway/customers/', { external_id: 'both-1' }));
    assert.equal(testCustomer.status, 201, 'one external_id per mode');
    assert.equal((await test.get(`/gateway/customers/${liveCustomer.id}/`)).status, 404);
    assert.equal((await live.get(`/gateway/customers/${testCustomer.body.id}/`)).status, 404);
    // A live card (a real-looking number: test cards are refused live).
    const liveSession = await live.post<SessionDetail>('/gateway/sessions/', sessionRequest({ customer: liveCustomer.id, save_card: 'off_session', return_url: 'https://shop.example/done' }));
    assert.equal(liveSession.status, 201, liveSession.text);
    const paid = await payOnPage(liveSession.body.checkout_url ?? '', { card_number: '4111111111111111' });
    assert.ok(paid.status < 400, paid.html.slice(0, 300));
    const liveCards = (await live.get<{ data: PaymentMethod[] }>(`/gateway/customers/${liveCustomer.id}/payment_methods/`)).body.data;
    assert.equal(liveCards.length, 1, 'the live card saved');
    const liveCard = liveCards[0] as PaymentMethod;
    assert.equal((await test.request('DELETE', `/gateway/customers/${liveCustomer.id}/payment_methods/${liveCard.id}/`)).status, 404);
    assert.deepEqual(fieldsOf((await charge(merchant.testKey, { customer: liveCustomer.id, payment_method: liveCard.id })).body), ['customer:not_found']);
    assert.deepEqual(fieldsOf((await charge(merchant.testKey, { customer: testCustomer.body.id, payment_method: liveCard.id })).body), ['payment_method:not_found']);
    const testPage = await steps.newSession(merchant, { customer: testCustomer.body.id });
    await steps.payWithSavedCard(testPage, liveCard.id, '123');
    assert.equal((await steps.session(merchant, testPage.id)).attempts.length, 0);
    assert.equal((await live.get<{ data: PaymentMethod[] }>(`/gateway/customers/${liveCustomer.id}/payment_methods/`)).body.data.length, 1);
    // The dashboard in test mode does not remove a live card.
    const developer = new Visitor(system.baseUrl);
    assert.equal((await developer.post('/dashboard/sign-in', { email: await system.dashboardUser(merchant.merchantId, 'developer', PASSWORD), password: PASSWORD })).status, 303);
    const token = await developer.csrf('/dashboard/customers');
    const removed = await developer.post(`/dashboard/customers/${liveCustomer.id}/cards/${liveCard.id}/remove`, { _csrf: token });
    assert.equal(removed.status, 404, removed.html.slice(0, 200));
    assert.equal((await live.get<{ data: PaymentMethod[] }>(`/gateway/customers/${liveCustomer.id}/payment_methods/`)).body.data.length, 1);
  });

  it('when cards are attached and detached, then the webhooks go to their own merchant only, signed with its secret, in its mode', async () => {
    const a = await system.newMerchant({ webhookUrl: receiver.url('/a'), limits: { account: 10_000, create: 10_000 } });
    const b = await system.newMerchant({ webhookUrl: receiver.url('/b'), limits: { account: 10_000, create: 10_000 } });
    const customer = await steps.newCustomer(a);
    const card = await steps.saveCard(a, customer, '4242424242424242');
    assert.equal((await system.api(a.testKey).request('DELETE', `/gateway/customers/${customer.id}/`)).status, 200);
    const isCard = (r: { body: { event: string; data: Record<string, unknown> } }) => r.body.event.startsWith('payment_method.') && r.body.data['id'] === card.id;
    await receiver.waitFor((all) => all.filter(isCard).length >= 2);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const hooks = receiver.received.filter(isCard);
    assert.deepEqual(hooks.map((h) => [h.path, h.body.event]).sort(), [
      ['/a', 'payment_method.attached'],
      ['/a', 'payment_method.detached'],
    ]);
    for (const hook of hooks) {
      assert.ok(verifySignature(hook.raw, hook.signature, a.webhookSecret), 'signed with the merchant\'s test secret');
      assert.equal(hook.body.data['livemode'], false);
      assert.equal(hook.body.data['customer'], customer.id);
    }
    assert.equal(receiver.received.filter((r) => r.path === '/b').length, 0, 'merchant b received nothing');
    void b;
  });

  it('when a payment link is made with customer or save_card, then it is refused; its buyer cannot save or pay with a saved card by forging the form', async () => {
    const { merchant, off } = await victim();
    const api = system.api(merchant.testKey);
    for (const extra of [{ customer: 'cus_aaaaaaaaaaaaaaaaaaaaaaaa' }, { save_card: 'off_session' }, { off_session: true }]) {
      const refused = await api.post<Problem>('/gateway/payment_links/', { amount: '10.000', description: 'Tea', ...extra });
      assert.equal(refused.status, 422, `${JSON.stringify(extra)}: ${refused.text}`);
    }
    const link = await api.post<{ url: string }>('/gateway/payment_links/', { amount: '10.000', description: 'Tea' });
    assert.equal(link.status, 201, link.text);
    const started = await fetch(link.body.url, {
      method: 'POST',
      body: new URLSearchParams({ first_name: 'Amina', last_name: 'Ben Salah', email: 'amina@example.tn', customer: 'x', save_card: 'off_session' }),
      redirect: 'manual',
    });
    const checkoutUrl = new URL(started.headers.get('location') ?? '', link.body.url).toString();
    assert.equal(started.status, 303, await started.text());
    // The saved card of the merchant's customer, forged into the link's page: nothing is charged.
    const forged = await fetch(`${checkoutUrl}/pay`, { method: 'POST', body: new URLSearchParams({ payment_method: off.id, saved_cvc: '123', language: 'en' }), redirect: 'manual' });
    await forged.body?.cancel();
    const sessions = (await api.get<{ data: { id: string; status: string; customer: string | null; attempts_count?: number }[] }>('/gateway/sessions/list/?limit=100')).body.data;
    const linkSession = sessions.find((s) => s.customer === null && s.status !== 'SUCCEEDED');
    assert.ok(linkSession, JSON.stringify(sessions));
    assert.equal((await steps.session(merchant, linkSession.id)).attempts.length, 0);
    // And the link's session paid with a ticked box saves nothing.
    const paid = await payOnPage(checkoutUrl, { card_number: '4000056655665556', save_card: 'yes' });
    assert.ok(paid.status < 400, paid.html.slice(0, 200));
    const customers = (await api.get<CustomerList>('/gateway/customers/')).body.data;
    assert.deepEqual(
      customers.map((c) => c.payment_methods.length),
      [2],
    );
  });

  it('when the saved-card form is tampered with, then it is refused on the page and nothing is charged', async () => {
    const { merchant, customer, on } = await victim();
    const session = await steps.newSession(merchant, { customer: customer.id });
    const refusals: [string, string][] = [
      [on.id, '1234'],
      [on.id, 'a1b'],
      [on.id, '1'.repeat(300)],
      [on.id, '١٢٣'],
      [on.id, '12\n3'],
      ['pm_short', '123'],
      [`${on.id}' onmouseover='x`, '123'],
      ['', '123'],
    ];
    for (const [pm, cvc] of refusals) {
      const answer = await steps.payWithSavedCard(session, pm, cvc);
      assert.equal(answer.status, 422, `${pm.slice(0, 40)} / ${cvc.slice(0, 10)}: ${answer.status}`);
      assert.doesNotMatch(answer.html, /onmouseover='x/);
    }
    assert.equal((await steps.session(merchant, session.id)).attempts.length, 0);
    // A session for no customer, given a saved card: nothing is charged, and the page does not call the link expired.
    const anonymous = await steps.newSession(merchant, {});
    const forged = await steps.payWithSavedCard(anonymous, on.id, '123');
    assert.equal((await steps.session(merchant, anonymous.id)).attempts.length, 0);
    assert.notEqual(forged.status, 410, `a session without customer given a saved card answers ${forged.status}`);
    // A ticked box on a session that does not save cards saves nothing, for a customer either.
    const notSaving = await steps.newSession(merchant, { customer: customer.id });
    await steps.pay(notSaving, { card_number: '4000056655665556', save_card: 'yes' });
    assert.equal((await steps.cardsOf(merchant, customer)).length, 2);
  });

  it('when customers are created with odd input, then each bad one gets a clear 4xx naming the field and good unicode comes back exactly', async () => {
    const merchant = await steps.newMerchant();
    const api = system.api(merchant.testKey);
    let deep: Record<string, unknown> = { leaf: 'x' };
    for (let i = 0; i < 200; i += 1) deep = { nested: deep };
    const bad: [unknown, string][] = [
      [{ metadata: deep }, 'metadata'],
      [{ metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])) }, 'metadata'],
      [{ metadata: { note: 'x'.repeat(501) } }, 'metadata'],
      [{ metadata: { ['k'.repeat(41)]: 'v' } }, 'metadata'],
      [{ email: null }, 'email'],
      [{ name: null }, 'name'],
      [{ external_id: '' }, 'external_id'],
      [{ external_id: 'x'.repeat(101) }, 'external_id'],
      [{ email: 'not-an-email' }, 'email'],
      [{ phone: '1'.repeat(21) }, 'phone'],
      [{ livemode: true }, 'livemode'],
      [{ id: 'cus_aaaaaaaaaaaaaaaaaaaaaaaa' }, 'id'],
      [JSON.parse('{"metadata": {"__proto__": "x"}}'), 'metadata.__proto__'],
    ];
    const answers: string[] = [];
    for (const [body, field] of bad) {
      const refused = await api.post<Problem>('/gateway/customers/', body);
      const fields = (refused.body.errors ?? []).map((e) => e.field);
      if (refused.status !== 422 || !fields.some((f) => f === field || f.startsWith(`${field}.`) || f.startsWith(`${field}[`))) answers.push(`${field}: ${refused.status} ${refused.text.slice(0, 160)}`);
    }
    for (const text of ['[]', 'null', '"x"', '{', '']) {
      const refused = await api.request('POST', '/gateway/customers/', text, { 'content-type': 'application/json' });
      if (refused.status !== 400 && refused.status !== 422) answers.push(`${JSON.stringify(text)}: ${refused.status}`);
    }
    const huge = await api.request('POST', '/gateway/customers/', JSON.stringify({ name: 'x'.repeat(2_000_000) }), { 'content-type': 'application/json' });
    if (huge.status !== 413 && huge.status !== 422) answers.push(`huge: ${huge.status}`);
    // NUL characters cannot be stored as text: refused, not a server error.
    for (const field of ['name', 'external_id', 'email', 'phone']) {
      const nul = await api.post<Problem>('/gateway/customers/', { [field]: field === 'email' ? 'a\u0000@example.tn' : 'a\u0000b' });
      if (nul.status >= 500 || nul.status === 201) answers.push(`NUL in ${field}: ${nul.status} ${nul.text.slice(0, 120)}`);
    }
    const nulMeta = await api.post<Problem>('/gateway/customers/', { metadata: { k: 'a\u0000b' } });
    if (nulMeta.status >= 500 || nulMeta.status === 201) answers.push(`NUL in metadata: ${nulMeta.status} ${nulMeta.text.slice(0, 120)}`);
    assert.deepEqual(answers, []);
    assert.deepEqual((await api.get<CustomerList>('/gateway/customers/')).body.data, [], 'no bad create made a customer');

    const name = 'ليلى 😀 Zoë e\u0301 \u202Eevil';
    const made = await api.post<Customer>('/gateway/customers/', { name, metadata: { 'clé': 'välue 😀' }, external_id: 'ünï-😀' });
    assert.equal(made.status, 201, made.text);
    assert.deepEqual([made.body.name, made.body.metadata, made.body.external_id], [name, { 'clé': 'välue 😀' }, 'ünï-😀']);
    const again = await api.post<Customer>('/gateway/customers/', { external_id: 'ünï-😀' });
    assert.deepEqual([again.status, again.body.id], [200, made.body.id]);
    const filtered = await api.get<CustomerList>(`/gateway/customers/?external_id=${encodeURIComponent('ünï-😀')}`);
    assert.deepEqual(filtered.body.data.map((c) => c.id), [made.body.id]);
    const nulQuery = await api.get<Problem>('/gateway/customers/?email=a%00b');
    assert.ok(nulQuery.status === 400 || nulQuery.status === 422, nulQuery.text);
  });

  it('when a DELETE carries a body, then it is refused and nothing is deleted', async () => {
    const { merchant, customer, off } = await victim();
    const api = system.api(merchant.testKey);
    const withBody = await api.request('DELETE', `/gateway/customers/${customer.id}/`, { reason: 'x' });
    assert.ok(withBody.status >= 400 && withBody.status < 500, `${withBody.status} ${withBody.text}`);
    const cardWithBody = await api.request('DELETE', `/gateway/customers/${customer.id}/payment_methods/${off.id}/`, { reason: 'x' });
    assert.ok(cardWithBody.status >= 400 && cardWithBody.status < 500, `${cardWithBody.status} ${cardWithBody.text}`);
    assert.equal((await api.get(`/gateway/customers/${customer.id}/`)).status, 200);
    assert.equal((await steps.cardsOf(merchant, customer)).length, 2);
    // Odd ids: not found, never a server error.
    for (const id of ['cus_', 'cus_%00', `${customer.id}%27`, 'cus_' + 'a'.repeat(5000), '..%2F..%2Fsessions']) {
      const answer = await api.get(`/gateway/customers/${id}/`);
      assert.ok(answer.status >= 400 && answer.status < 500, `${id.slice(0, 30)}: ${answer.status}`);
    }
  });

  it('when a customer name holds markup, then the dashboard shows it as text', async () => {
    const merchant = await steps.newMerchant();
    const customer = await steps.newCustomer(merchant, { name: '<img src=x onerror=alert(1)>', email: 'x@example.tn', phone: '"><script>1</script>', metadata: { '<b>': '<i>' } });
    const owner = new Visitor(system.baseUrl);
    assert.equal((await owner.post('/dashboard/sign-in', { email: await system.dashboardUser(merchant.merchantId, 'owner', PASSWORD), password: PASSWORD })).status, 303);
    for (const path of ['/dashboard/customers', `/dashboard/customers/${customer.id}`]) {
      const page = await owner.get(path);
      assert.equal(page.status, 200, page.html.slice(0, 200));
      assert.doesNotMatch(page.html, /<img src=x|<script>1|<b>|<i>/);
    }
  });
});
