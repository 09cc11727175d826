/**
 * One payment's page (D14, D26): its attempts name how each was paid, a
 * card with its brand and last four, Flouci by its name, in each language.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import type { Attempt, SessionDetail } from '@gateway/contracts';
import type { Language } from '@gateway/i18n';
import { paymentPage } from '../../src/views/merchant/payment.page.js';
import { wordsIn } from '../../src/views/texts/catalogue.js';

const AT = '2026-11-30T10:15:00.000Z';

/** An attempt as the session answers it; `payment_method_type` only when given (a session service that predates it answers none). */
function attempt(n: number, over: Partial<Attempt> & { payment_method_type?: 'card' | 'flouci' }): Attempt {
  const answered = { id: `pa_${String(n).padStart(20, '0')}`, attempt_number: n, status: 'FAILED', card_brand: '', card_last_four: '', failure_code: '', fee_amount: '', net_amount: '', created_at: AT, ...over };
  return answered as Attempt;
}

const session = (attempts: Attempt[]): SessionDetail => ({
  id: 'ps_00000000000000000001',
  merchant_reference: 'order-1',
  order_number: 'A1',
  order_id: '',
  amount: '25.000',
  currency: 'TND',
  original: { amount: '25.000', currency: 'TND', rate: '1.000000' },
  description: '',
  items: [],
  status: 'SUCCEEDED',
  livemode: false,
  buyer_first_name: '',
  buyer_last_name: '',
  buyer_email: 'amina@example.tn',
  buyer_phone: '',
  metadata: {},
  return_url: '',
  cancel_url: '',
  webhook_url: '',
  max_attempts: 5,
  locale: 'auto',
  expires_at: AT,
  completed_at: AT,
  created_at: AT,
  attempts,
  amount_refunded: '0.000',
  capture_method: 'automatic',
  amount_authorized: '25.000',
  amount_captured: '25.000',
  customer: null,
  payment_method: '',
});

/** The attempts table's method cells, as text, in row order; and its headings. */
function attemptsOf(language: Language, attempts: Attempt[]): { headings: string[]; methods: string[] } {
  const reader = { language, t: wordsIn(language), mode: 'test' as const, csrf: 'c' };
  const page = paymentPage(reader, { session: session(attempts), refunds: { data: [] }, deliveries: { data: [] }, developer: false }).body.toString();
  const section = page.slice(page.indexOf('<table>'), page.indexOf('</table>'));
  const text = (cell: string) => cell.replace(/<[^>]+>/g, '').replace(/\s+/g, ' ').trim();
  return {
    headings: [...section.matchAll(/<th[^>]*>(.*?)<\/th>/g)].map((m) => text(m[1] ?? '')),
    methods: [...section.matchAll(/<tr><td>\d+<\/td><td>\w+<\/td><td>(.*?)<\/td>/gs)].map((m) => text(m[1] ?? '')),
  };
}

describe('The payment page: how each attempt was paid (D26)', () => {
  const attempts = [
    attempt(1, { payment_method_type: 'card', card_brand: 'visa', card_last_four: '4242', failure_code: 'card_declined' }),
    attempt(2, { payment_method_type: 'flouci', card_brand: 'flouci', failure_code: 'wallet_declined' }),
    attempt(3, { payment_method_type: 'card' }),
  ];

  it('when a payment has card and Flouci attempts, then the method column says Card with the brand and last four, or Flouci, in each language', () => {
    assert.deepEqual(attemptsOf('en', attempts), { headings: ['#', 'Status', 'Payment method', 'Failure', 'Fee', 'Net', 'Created'], methods: ['Card visa •••• 4242', 'Flouci', 'Card'] });
    assert.deepEqual(attemptsOf('fr', attempts).methods, ['Carte visa •••• 4242', 'Flouci', 'Carte']);
    assert.deepEqual(attemptsOf('fr', attempts).headings[2], 'Moyen de paiement');
    assert.deepEqual(attemptsOf('ar', attempts).methods, ['البطاقة visa •••• 4242', 'Flouci', 'البطاقة']);
    assert.deepEqual(attemptsOf('ar', attempts).headings[2], 'وسيلة الدفع');
  });

  it('when an attempt comes without payment_method_type (a session service that predates it), then a Flouci one is known by its brand', () => {
    const older = [attempt(1, { card_brand: 'flouci' }), attempt(2, { card_brand: 'mastercard', card_last_four: '5100' })];
    assert.deepEqual(attemptsOf('en', older).methods, ['Flouci', 'Card mastercard •••• 5100']);
  });
});
