/**
 * `gateway trigger <event>`: makes the gateway emit a real test-mode event by
 * doing what causes it: a session created through the API and paid (or
 * declined, or held for a later capture) with a test card through the hosted
 * page's own form, as a buyer's browser would post it. With `gateway listen`
 * running, the merchant sees the whole flow arrive at their receiver without
 * opening a browser.
 */
import { randomUUID } from 'node:crypto';
import { Gateway } from '../client.js';
import type { CreateSessionRequest, SessionDetail } from '../generated/openapi.js';

export interface TriggerOptions {
  apiKey: string;
  baseUrl: string;
  print?: (line: string) => void;
}

/** The D8 test cards the triggers pay with. */
const APPROVED_CARD = '4242424242424242';
const DECLINED_CARD = '4000000000000002';

type Scenario = (gateway: Gateway, print: (line: string) => void) => Promise<void>;

const scenarios: Record<string, Scenario> = {
  // A manual session paid: the payment is held (AUTHORIZED, D22) and stays so until captured or canceled.
  'session.authorized': async (gateway, print) => {
    const session = await createSession(gateway, print, { capture_method: 'manual' });
    await pay(session, APPROVED_CARD, print);
    print(`Capture it with gateway.sessions.capture('${session.id}'), or cancel it to release the hold`);
  },
  'session.succeeded': async (gateway, print) => {
    const session = await createSession(gateway, print);
    await pay(session, APPROVED_CARD, print);
  },
  'session.failed': async (gateway, print) => {
    const session = await createSession(gateway, print, { max_attempts: 1 });
    await pay(session, DECLINED_CARD, print);
  },
  'session.canceled': async (gateway, print) => {
    const session = await createSession(gateway, print);
    await gateway.sessions.cancel(session.id);
    print(`Canceled ${session.id}`);
  },
  'refund.created': async (gateway, print) => {
    const session = await createSession(gateway, print);
    await pay(session, APPROVED_CARD, print);
    const refund = await gateway.sessions.refund(session.id, { reason: 'gateway trigger refund.created' });
    print(`Refunded ${refund.refunded_amount} TND (${refund.refund_id})`);
  },
  // D24: a customer's card saved with a payment (for charges without the buyer).
  'payment_method.attached': async (gateway, print) => {
    await saveCard(gateway, print);
  },
  'payment_method.detached': async (gateway, print) => {
    const { customer, card } = await saveCard(gateway, print);
    await gateway.customers.paymentMethods.delete(customer, card);
    print(`Removed ${card}`);
  },
};

/** A test customer with a card saved off_session by a paid session; their ids. */
async function saveCard(gateway: Gateway, print: (line: string) => void): Promise<{ customer: string; card: string }> {
  const customer = await gateway.customers.create({ email: 'amina@example.tn', name: 'Amina Ben Salah' });
  print(`Created ${customer.id}`);
  await pay(await createSession(gateway, print, { customer: customer.id, save_card: 'off_session' }), APPROVED_CARD, print);
  const [card] = await gateway.customers.paymentMethods.list(customer.id);
  if (!card) throw new Error(`no card was saved for ${customer.id}`);
  print(`Saved ${card.id} (${card.card_brand} ${card.card_last_four})`);
  return { customer: customer.id, card: card.id };
}

/** The events `trigger` knows how to cause. */
export const TRIGGERABLE_EVENTS = Object.keys(scenarios);

export async function trigger(event: string, options: TriggerOptions): Promise<void> {
  const scenario = scenarios[event];
  if (!scenario) throw new Error(`Cannot trigger ${event}; choose one of ${TRIGGERABLE_EVENTS.join(', ')}`);
  if (!options.apiKey.startsWith('sk_test_')) throw new Error('gateway trigger pays with test cards: use a test key (sk_test_...)');
  await scenario(new Gateway(options.apiKey, { baseUrl: options.baseUrl }), options.print ?? ((line) => console.log(line)));
}

async function createSession(gateway: Gateway, print: (line: string) => void, extra: Partial<CreateSessionRequest> = {}): Promise<SessionDetail> {
  const session = await gateway.sessions.create({
    amount: '12.500',
    merchant_reference: `trigger-${randomUUID()}`,
    description: 'Created by gateway trigger',
    first_name: 'Amina',
    last_name: 'Ben Salah',
    email: 'amina@example.tn',
    ...extra,
  });
  print(`Created ${session.id} (${session.amount} TND)`);
  return session;
}

/** Posts the hosted page's card form, as the buyer's browser would. */
async function pay(session: SessionDetail, cardNumber: string, print: (line: string) => void): Promise<void> {
  const page = session.checkout_url;
  if (!page) throw new Error(`${session.id} has no checkout link`);
  const form = new URLSearchParams({ card_number: cardNumber, expiry: '12/34', cvc: '123', cardholder_name: 'Amina Ben Salah' });
  const answer = await fetch(`${page}/pay`, { method: 'POST', body: form, redirect: 'manual' });
  await answer.body?.cancel();
  // The page answers a finished payment with a redirect to its result (303), or shows the result at once.
  if (answer.status !== 303 && answer.status !== 200) throw new Error(`The checkout page answered ${answer.status}`);
  print(`Paid ${session.id} with test card ${cardNumber.slice(-4)} on the hosted page`);
}
