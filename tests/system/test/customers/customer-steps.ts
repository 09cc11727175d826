/** The steps the customer and saved-card tests share, against a running TestSystem (D24). */
import assert from 'node:assert/strict';
import type { Customer, PaymentMethod, PaymentMethodList, SessionDetail } from '@gateway/contracts';
import { payOnPage, sessionRequest, type CardForm, type Merchant, type TestSystem } from '@gateway/testkit';

/** A problem document (RFC 9457) as these tests read it. */
export interface Problem {
  type?: string;
  status?: number;
  code?: string;
  errors?: { field: string; code: string }[];
}

/** A problem's field errors as `field:code`, in the order given. */
export const fieldsOf = (problem: Problem) => (problem.errors ?? []).map((error) => `${error.field}:${error.code}`);

export class CustomerSteps {
  constructor(private readonly system: TestSystem) {}

  /** A merchant whose budgets no test here reaches. */
  newMerchant(): Promise<Merchant> {
    return this.system.newMerchant({ limits: { account: 10_000, create: 10_000 } });
  }

  async newCustomer(merchant: Merchant, body: Record<string, unknown> = { email: 'amina@example.tn' }): Promise<Customer> {
    const created = await this.system.api(merchant.testKey).post<Customer>('/gateway/customers/', body);
    assert.equal(created.status, 201, created.text);
    return created.body;
  }

  async newSession(merchant: Merchant, body: Record<string, unknown>): Promise<SessionDetail> {
    const created = await this.system.api(merchant.testKey).post<SessionDetail>('/gateway/sessions/', sessionRequest({ locale: 'en', ...body }));
    assert.equal(created.status, 201, created.text);
    return created.body;
  }

  async session(merchant: Merchant, id: string): Promise<SessionDetail> {
    const read = await this.system.api(merchant.testKey).get<SessionDetail>(`/gateway/sessions/${id}/`);
    assert.equal(read.status, 200, read.text);
    return read.body;
  }

  async cardsOf(merchant: Merchant, customer: Customer): Promise<PaymentMethod[]> {
    const read = await this.system.api(merchant.testKey).get<PaymentMethodList>(`/gateway/customers/${customer.id}/payment_methods/`);
    assert.equal(read.status, 200, read.text);
    return read.body.data;
  }

  async pay(session: SessionDetail, card: CardForm): Promise<void> {
    const paid = await payOnPage(session.checkout_url ?? '', card);
    assert.ok(paid.status < 400, `${paid.status}: ${paid.html.slice(0, 300)}`);
  }

  /** Posts the page's saved-card form (D24): the card chosen and its security code; the answer's status and where it led. */
  async payWithSavedCard(session: SessionDetail, paymentMethod: string, cvc: string): Promise<{ status: number; html: string }> {
    const form = new URLSearchParams({ payment_method: paymentMethod, saved_cvc: cvc, language: 'en' });
    const posted = await fetch(`${session.checkout_url ?? ''}/pay`, { method: 'POST', body: form, redirect: 'manual', headers: { 'accept-language': 'en' } });
    const location = posted.headers.get('location');
    if (posted.status !== 303 || !location) return { status: posted.status, html: await posted.text() };
    await posted.body?.cancel();
    const result = await fetch(new URL(location, session.checkout_url), { redirect: 'manual' });
    return { status: result.status, html: await result.text() };
  }

  /** Saves `cardNumber` for the customer with a paid session asking `usage`; the saved card. */
  async saveCard(merchant: Merchant, customer: Customer, cardNumber: string, usage: 'on_session' | 'off_session' = 'off_session'): Promise<PaymentMethod> {
    await this.pay(await this.newSession(merchant, { customer: customer.id, save_card: usage }), { card_number: cardNumber, ...(usage === 'on_session' && { save_card: 'yes' as const }) });
    const saved = (await this.cardsOf(merchant, customer)).find((card) => card.card_last_four === cardNumber.slice(-4));
    assert.ok(saved, `card ${cardNumber.slice(-4)} not saved`);
    return saved;
  }

  /** The sandbox's bindings of the customer on the test terminal. */
  async acquirerBindings(customer: Customer): Promise<Record<string, unknown>[]> {
    const answer = await this.system.sandboxCall('getBindings.do', { clientId: customer.id });
    return Array.isArray(answer['bindings']) ? (answer['bindings'] as Record<string, unknown>[]) : [];
  }
}
