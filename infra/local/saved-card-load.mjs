// Saved cards under load (D24): each merchant of the bench gets a customer
// whose card (4242) is saved off_session by a payment through the hosted page;
// then charges without the buyer run at a fixed rate beside plain creates at
// the same rate (two open-model loads at once), each with its own latencies,
// and the CPU of the window is reported per request.
import { HttpClient, openLoad, quantile } from './open-load.mjs';
import { cpuWindow, perUnit } from './process-cpu.mjs';

const CARD = { card_number: '4242424242424242', expiry: '12/34', cvc: '123', cardholder_name: 'Bench Buyer' };

/** For each key, a customer with a card saved off_session: key → { customer, paymentMethod }. */
export async function saveCards({ baseUrl, checkoutUrl, keys }) {
  const api = new HttpClient(baseUrl);
  const pages = new HttpClient(checkoutUrl);
  const json = { 'content-type': 'application/json' };
  const cards = new Map();
  try {
    for (const key of keys) {
      const auth = { authorization: `Bearer ${key}` };
      const customer = JSON.parse((await api.exchange({ method: 'POST', path: '/api/v1/gateway/customers/', headers: { ...auth, ...json }, body: JSON.stringify({ email: 'buyer@example.tn', name: 'Bench Buyer' }) })).text);
      const created = await api.exchange({
        method: 'POST',
        path: '/api/v1/gateway/sessions/',
        headers: { ...auth, ...json },
        body: JSON.stringify({ amount: '1.000', merchant_reference: `save-${customer.id}`, first_name: 'Bench', last_name: 'Buyer', email: 'buyer@example.tn', customer: customer.id, save_card: 'off_session' }),
      });
      if (created.status !== 201) throw new Error(`saving a card: create answered ${created.status}`);
      const pagePath = new URL(JSON.parse(created.text).checkout_url).pathname;
      await pages.exchange({ method: 'POST', path: `${pagePath}/pay`, body: new URLSearchParams(CARD).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      const listed = JSON.parse((await api.exchange({ method: 'GET', path: `/api/v1/gateway/customers/${customer.id}/payment_methods/`, headers: auth })).text);
      const [card] = listed.data ?? [];
      if (!card) throw new Error(`no card saved for ${customer.id}`);
      cards.set(key, { customer: customer.id, paymentMethod: card.id });
    }
  } finally {
    api.close();
    pages.close();
  }
  return cards;
}

/** Charges without the buyer at `rate` beside plain creates at `rate`, for `seconds`; each side's figures, and the window's CPU per request. */
export async function chargesBesideCreates({ baseUrl, keys, cards, rate, seconds, processes }) {
  let sequence = 0;
  // References unique to this run: a later run (or the warm-up's) reusing one would be a replay.
  const run = `${process.pid}-${Date.now().toString(36)}`;
  const request = () => {
    sequence += 1;
    const key = keys[sequence % keys.length];
    return { key, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, reference: `bench-${run}-${sequence}` };
  };
  const cpu = cpuWindow(processes);
  const [charges, creates] = await Promise.all([
    openLoad({
      url: baseUrl,
      rate,
      seconds,
      next: () => {
        const { key, headers, reference } = request();
        const card = cards.get(key);
        return { method: 'POST', path: '/api/v1/gateway/sessions/', headers, body: JSON.stringify({ amount: '9.900', merchant_reference: reference, customer: card.customer, payment_method: card.paymentMethod, off_session: true }) };
      },
    }),
    openLoad({
      url: baseUrl,
      rate,
      seconds,
      next: () => {
        const { headers, reference } = request();
        return { method: 'POST', path: '/api/v1/gateway/sessions/', headers, body: JSON.stringify({ amount: '125.500', merchant_reference: reference, first_name: 'Bench', last_name: 'Buyer', email: 'buyer@example.tn' }) };
      },
    }),
  ]);
  const spent = cpu.stop();
  const round = (v) => Math.round(v * 10) / 10;
  const side = (r) => ({
    rps: Math.round(r.latencies.length / r.seconds),
    p50: round(quantile(r.latencies, 0.5)),
    p99: round(quantile(r.latencies, 0.99)),
    non201: [...r.statuses].filter(([status]) => status !== 201).reduce((n, [, c]) => n + c, 0),
    statuses: Object.fromEntries(r.statuses),
    errors: r.errors,
  });
  const offSession = side(charges);
  return { ...offSession, offSession, creates: side(creates), cpuMsPerRequest: perUnit(spent, Math.max(1, charges.latencies.length + creates.latencies.length)) };
}
