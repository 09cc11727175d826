/** Money events as the session and refund services write them, for the ledger's tests without servers. */
import type { EventData } from '@gateway/contracts';

const MERCHANT = 'mer_AAAAAAAAAAAAAAAAAAAAAAAA';

export type SessionPayload = EventData<'session.succeeded'>['session'];

/** session.succeeded's data: a 100.000 TND payment with a 2.750 fee, paid at `paid_at` (22:59:59Z, the last second of 2026-11-25 in Tunis), with `session` over it. */
export function succeededData(session: Partial<SessionPayload> = {}): EventData<'session.succeeded'> {
  return {
    merchant_id: MERCHANT,
    webhook_url: '',
    session: {
      id: 'ps_AAAAAAAAAAAAAAAAAAAAAAAA',
      order_number: 'A1',
      merchant_reference: 'order-1',
      order_id: 'o',
      amount: '100.000',
      currency: 'TND',
      description: '',
      status: 'SUCCEEDED',
      livemode: false,
      buyer: { first_name: '', last_name: '', email: '', phone: '' },
      items: [],
      metadata: {},
      original: { amount: '100.000', currency: 'TND', rate: '1.000000' } as never,
      paid_at: '2026-11-25T22:59:59.000Z',
      payment: { method: 'card', card_brand: 'VISA', card_last_four: '4242', card_country: 'TN', fee_amount: '2.750', net_amount: '97.250' },
      ...session,
    },
  };
}

/** refund.created's (or refund.updated's) data: a refund of `amount` of that payment (with `session` over it), in `status`. */
export function refundData(amount: string, status: 'succeeded' | 'pending' | 'failed' = 'succeeded', session: Partial<SessionPayload> = {}): EventData<'refund.created'> {
  const data = succeededData(session);
  return { ...data, session: { ...data.session, refund: { refund_id: 're_AAAAAAAAAAAAAAAAAAAAAAAA', amount, automated_refund: status !== 'pending', reason: 'r', metadata: {}, status } } };
}
