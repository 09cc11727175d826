/**
 * A paid session's event data as the session service announces it, for the
 * notifier's unit tests: a French buyer's 33.325 TND paid by card. A test
 * replaces what it is about: the session's fields, the receipt facts
 * (`false`: none), the merchant.
 */
import type { SessionEventData } from '@gateway/contracts';
import type { Receipt } from '../../src/domain/receipts.js';

export const PAID_AT = new Date('2026-11-26T23:30:00Z');

export const BUYER: SessionEventData['session']['buyer'] = { first_name: 'Amina', last_name: 'Ben Salah', email: 'amina@example.tn', phone: '' };

export function paidSessionData(
  over: { merchant_id?: string; session?: Partial<SessionEventData['session']>; receipt?: SessionEventData['receipt'] | false } = {},
): SessionEventData {
  return {
    merchant_id: over.merchant_id ?? 'mer_1',
    webhook_url: '',
    session: {
      id: 'ps_AAAAAAAAAAAAAAAAAAAAAAAA',
      order_number: 'DMO-7K2M9Q',
      merchant_reference: 'r1',
      order_id: 'o1',
      amount: '33.325',
      currency: 'TND',
      description: '',
      status: 'SUCCEEDED',
      livemode: false,
      buyer: BUYER,
      items: [],
      metadata: {},
      original: { amount: '33.325', currency: 'TND', rate: '1.000000' },
      paid_at: PAID_AT.toISOString(),
      payment: { method: 'card', card_brand: 'VISA', card_last_four: '4242', card_country: 'TN', fee_amount: '1.000', net_amount: '32.325' },
      ...over.session,
    },
    ...(over.receipt !== false && { receipt: over.receipt ?? { merchant_name: 'Dar Zitouna', locale: 'en' } }),
  };
}

/** A receipt as the templates take it: a French payment of 1,234.500 TND by Visa, in live mode. */
export function receiptOf(over: Partial<Receipt> = {}): Receipt {
  return {
    kind: 'payment_receipt',
    language: 'fr',
    livemode: true,
    merchantName: 'Dar Zitouna',
    orderNumber: 'DMO-7K2M9Q',
    amount: '1234.500',
    card: { brand: 'visa', lastFour: '4242' },
    at: PAID_AT,
    ...over,
  };
}
