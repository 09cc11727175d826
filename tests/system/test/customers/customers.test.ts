/**
 * Customers (D24) through the API, against the whole system: created
 * idempotently on external_id (raced too), read, listed with filters and
 * cursors, deleted, each only by the account (merchant and mode) that owns
 * it; sessions made for a customer carry it, and one for another account's
 * customer or a deleted one is refused, as is save_card without a customer.
 */
import assert from 'node:assert/strict';
import type { Customer, CustomerList, Deleted, PaymentMethodList, SessionDetail, SessionList } from '@gateway/contracts';
import { sessionRequest, TestSystem, type Merchant } from '@gateway/testkit';
import { fieldsOf, type Problem } from './customer-steps.js';


describe('Customers (D24)', function () {
  this.timeout(60_000);
  let system: TestSystem;

  before(async () => {
    system = await TestSystem.start();
  });

  after(async () => {
    await system?.shutdown();
  });

  /** A merchant whose budgets no test here reaches. */
  const newMerchant = () => system.newMerchant({ limits: { account: 10_000, create: 10_000 } });

  async function newCustomer(merchant: Merchant, body: Record<string, unknown> = {}): Promise<Customer> {
    const created = await system.api(merchant.testKey).post<Customer>('/gateway/customers/', body);
    assert.equal(created.status, 201, created.text);
    return created.body;
  }


  it('creates a customer with what the merchant gave, no saved card yet, and reads it back', async () => {
    const merchant = await newMerchant();
    const customer = await newCustomer(merchant, { email: 'amina@example.tn', name: 'Amina Ben Salah', phone: '+21620000000', metadata: { plan: 'gold' }, external_id: 'u-1' });
    assert.match(customer.id, /^cus_[0-9A-Za-z]{20,}$/);
    assert.deepEqual(
      { ...customer, id: '', created_at: '' },
      { id: '', external_id: 'u-1', email: 'amina@example.tn', name: 'Amina Ben Salah', phone: '+21620000000', metadata: { plan: 'gold' }, livemode: false, created_at: '', payment_methods: [] },
    );
    const read = await system.api(merchant.testKey).get<Customer>(`/gateway/customers/${customer.id}/`);
    assert.equal(read.status, 200, read.text);
    assert.deepEqual(read.body, customer);
    const bare = await newCustomer(merchant);
    assert.deepEqual({ email: bare.email, name: bare.name, phone: bare.phone, external_id: bare.external_id, metadata: bare.metadata }, { email: null, name: null, phone: null, external_id: null, metadata: {} });
  });

  it('answers the customer it has for an external_id (200), even to twelve creates raced at once', async () => {
    const merchant = await newMerchant();
    const api = system.api(merchant.testKey);
    const first = await newCustomer(merchant, { external_id: 'member-7', email: 'first@example.tn' });
    const again = await api.post<Customer>('/gateway/customers/', { external_id: 'member-7', email: 'other@example.tn' });
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body.id, first.id);
    assert.equal(again.body.email, 'first@example.tn');

    const raced = await Promise.all(Array.from({ length: 12 }, () => api.post<Customer>('/gateway/customers/', { external_id: 'member-8' })));
    assert.deepEqual(raced.map((r) => r.status).sort(), [200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    assert.equal(new Set(raced.map((r) => r.body.id)).size, 1);
    const listed = await api.get<CustomerList>('/gateway/customers/?external_id=member-8');
    assert.equal(listed.body.data.length, 1);
  });

  it('refuses a bad create with every error at once and makes nothing', async () => {
    const merchant = await newMerchant();
    const api = system.api(merchant.testKey);
    const refused = await api.post<Problem>('/gateway/customers/', { email: 'not-an-email', name: 'x'.repeat(201), phone: '1'.repeat(21), metadata: { a: 1 }, external_id: '', colour: 'red' });
    assert.equal(refused.status, 422, refused.text);
    assert.equal((refused.body.type ?? '').endsWith('validation-error'), true, refused.text);
    assert.deepEqual(fieldsOf(refused.body).map((f) => f.split(':')[0]), ['email', 'name', 'phone', 'metadata', 'external_id', 'colour']);
    for (const body of ['[]', '"x"', '{']) {
      const bad = await api.request<Problem>('POST', '/gateway/customers/', body);
      assert.ok([400, 422].includes(bad.status), `${body}: ${bad.text}`);
      assert.doesNotMatch(bad.text, /at |SELECT|stack/i);
    }
    const list = await api.get<CustomerList>('/gateway/customers/');
    assert.deepEqual(list.body.data, []);
  });

  it('lists newest first, filters by email or external_id, pages with cursors, and refuses what it does not know', async () => {
    const merchant = await newMerchant();
    const api = system.api(merchant.testKey);
    const made: Customer[] = [];
    for (let i = 0; i < 5; i += 1) made.push(await newCustomer(merchant, { email: i % 2 === 0 ? 'even@example.tn' : 'odd@example.tn', external_id: `c-${i}` }));
    const all = await api.get<CustomerList>('/gateway/customers/');
    assert.deepEqual(all.body.data.map((c) => c.id), made.map((c) => c.id).reverse());
    const even = await api.get<CustomerList>('/gateway/customers/?email=even%40example.tn');
    assert.equal(even.status, 200, even.text);
    assert.deepEqual(even.body.data.map((c) => c.external_id), ['c-4', 'c-2', 'c-0']);
    const one = await api.get<CustomerList>('/gateway/customers/?external_id=c-3');
    assert.deepEqual(one.body.data.map((c) => c.id), [made[3]?.id]);
    const page1 = await api.get<CustomerList>('/gateway/customers/?limit=2');
    assert.equal(page1.body.has_more, true);
    const page2 = await api.get<CustomerList>(`/gateway/customers/?limit=2&starting_after=${page1.body.data[1]?.id}`);
    assert.deepEqual(page2.body.data.map((c) => c.id), [made[2]?.id, made[1]?.id]);
    const back = await api.get<CustomerList>(`/gateway/customers/?limit=2&ending_before=${page2.body.data[0]?.id}`);
    assert.deepEqual(back.body.data.map((c) => c.id), page1.body.data.map((c) => c.id));

    const unknown = await api.get<Problem>('/gateway/customers/?colour=red');
    assert.equal(unknown.status, 422, unknown.text);
    const other = await newCustomer(await newMerchant());
    const foreignCursor = await api.get<Problem>(`/gateway/customers/?starting_after=${other.id}`);
    assert.equal(foreignCursor.status, 422, foreignCursor.text);
  });

  it("keeps each account's customers its own: another merchant or mode finds none of them", async () => {
    const owner = await newMerchant();
    const other = await newMerchant();
    const customer = await newCustomer(owner, { external_id: 'shared-id' });
    const api = system.api(other.testKey);
    assert.equal((await api.get(`/gateway/customers/${customer.id}/`)).status, 404);
    assert.equal((await api.get(`/gateway/customers/${customer.id}/payment_methods/`)).status, 404);
    assert.equal((await api.request('DELETE', `/gateway/customers/${customer.id}/`)).status, 404);
    // The same external_id at another merchant is another customer.
    const theirs = await api.post<Customer>('/gateway/customers/', { external_id: 'shared-id' });
    assert.equal(theirs.status, 201, theirs.text);
    assert.notEqual(theirs.body.id, customer.id);
    const session = await api.post<Problem>('/gateway/sessions/', sessionRequest({ customer: customer.id }));
    assert.equal(session.status, 422, session.text);
    assert.deepEqual(fieldsOf(session.body), ['customer:not_found']);

    const liveKey = await system.approveLive(owner.merchantId, { terminal: true });
    assert.equal((await system.api(liveKey).get(`/gateway/customers/${customer.id}/`)).status, 404);
    const liveSession = await system.api(liveKey).post<Problem>('/gateway/sessions/', sessionRequest({ customer: customer.id, return_url: 'https://shop.example/done' }));
    assert.equal(liveSession.status, 422, liveSession.text);
    assert.deepEqual(fieldsOf(liveSession.body), ['customer:not_found']);
  });

  it('makes sessions for a customer, which carry it; save_card needs a customer', async () => {
    const merchant = await newMerchant();
    const api = system.api(merchant.testKey);
    const customer = await newCustomer(merchant);
    const created = await api.post<SessionDetail>('/gateway/sessions/', sessionRequest({ customer: customer.id, save_card: 'on_session' }));
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.customer, customer.id);
    const plain = await api.post<SessionDetail>('/gateway/sessions/', sessionRequest());
    assert.equal(plain.body.customer, null);
    const listed = await api.get<SessionList>('/gateway/sessions/list/');
    assert.deepEqual(listed.body.data.map((s) => s.customer), [null, customer.id]);

    const noCustomer = await api.post<Problem>('/gateway/sessions/', sessionRequest({ save_card: 'off_session' }));
    assert.equal(noCustomer.status, 422, noCustomer.text);
    assert.deepEqual(fieldsOf(noCustomer.body), ['customer:required']);
    const badValue = await api.post<Problem>('/gateway/sessions/', sessionRequest({ customer: customer.id, save_card: 'always' }));
    assert.equal(badValue.status, 422, badValue.text);
    assert.deepEqual(fieldsOf(badValue.body).map((f) => f.split(':')[0]), ['save_card']);
    const malformed = await api.post<Problem>('/gateway/sessions/', sessionRequest({ customer: 'cus_nope' }));
    assert.deepEqual(fieldsOf(malformed.body), ['customer:not_found']);
    // save_card off needs no customer.
    assert.equal((await api.post('/gateway/sessions/', sessionRequest({ save_card: 'off' }))).status, 201);
  });

  it('deletes a customer: found no more, refused for new sessions, its external_id free again; its sessions stay', async () => {
    const merchant = await newMerchant();
    const api = system.api(merchant.testKey);
    const customer = await newCustomer(merchant, { external_id: 'leaving' });
    const session = await api.post<SessionDetail>('/gateway/sessions/', sessionRequest({ customer: customer.id }));
    assert.equal(session.status, 201, session.text);

    const deleted = await api.request<Deleted>('DELETE', `/gateway/customers/${customer.id}/`);
    assert.equal(deleted.status, 200, deleted.text);
    assert.deepEqual(deleted.body, { id: customer.id, deleted: true });
    assert.equal((await api.request('DELETE', `/gateway/customers/${customer.id}/`)).status, 404);
    assert.equal((await api.get(`/gateway/customers/${customer.id}/`)).status, 404);
    assert.equal((await api.get(`/gateway/customers/${customer.id}/payment_methods/`)).status, 404);
    assert.deepEqual((await api.get<CustomerList>('/gateway/customers/')).body.data, []);
    const refused = await api.post<Problem>('/gateway/sessions/', sessionRequest({ customer: customer.id }));
    assert.deepEqual(fieldsOf(refused.body), ['customer:not_found']);
    const kept = await api.get<SessionDetail>(`/gateway/sessions/${session.body.id}/`);
    assert.equal(kept.body.customer, customer.id);
    const again = await api.post<Customer>('/gateway/customers/', { external_id: 'leaving' });
    assert.equal(again.status, 201, again.text);
    assert.notEqual(again.body.id, customer.id);
  });

  it('lists a customer without cards as an empty page, and refuses to remove a card it does not have', async () => {
    const merchant = await newMerchant();
    const api = system.api(merchant.testKey);
    const customer = await newCustomer(merchant);
    const cards = await api.get<PaymentMethodList>(`/gateway/customers/${customer.id}/payment_methods/`);
    assert.equal(cards.status, 200, cards.text);
    assert.deepEqual(cards.body, { data: [], has_more: false });
    for (const id of ['pm_000000000000000000000000', 'pm_x', 'pm_%2F..']) {
      const removed = await api.request<Problem>('DELETE', `/gateway/customers/${customer.id}/payment_methods/${id}/`);
      assert.equal(removed.status, 404, `${id}: ${removed.text}`);
    }
    assert.equal((await api.request('DELETE', `/gateway/customers/${customer.id}/payment_methods/pm_000000000000000000000000/`, '{"force":true}')).status, 422);
  });
});
