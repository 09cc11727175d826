/**
 * The public API's payment links (D19): the create request, the link and its list.
 */
import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Decimal, HttpUrl, Id, Item, Locale, LOCALE_DESCRIPTION, LOCALES, Metadata, PAGING } from './api-parts.js';

/** A TND amount of a payment link's open bounds (D19): a decimal string, checked as every amount is. */
const LinkAmount = (description: string) => Type.String({ minLength: 1, description });

/** POST /gateway/payment_links/ (D19): a fixed price (`amount`, `currency`) or an open amount the buyer types (`open_amount`, optional TND bounds). */
export const CreatePaymentLinkRequest = Type.Object(
  {
    description: Type.String({ minLength: 1, maxLength: 500 }),
    amount: Type.Optional(LinkAmount("Fixed price, a decimal string at the currency's precision; converted to TND at each payment's creation.")),
    currency: Type.Optional(Type.String({ minLength: 1, maxLength: 3, description: 'ISO 4217 code of the fixed price; defaults to TND.' })),
    open_amount: Type.Optional(Type.Boolean({ description: 'true: the buyer types the amount (TND), within amount_min and amount_max.' })),
    amount_min: Type.Optional(LinkAmount('Open amount: the least a buyer may pay, TND.')),
    amount_max: Type.Optional(LinkAmount('Open amount: the most a buyer may pay, TND.')),
    items: Type.Optional(Type.Array(Item)),
    metadata: Type.Optional(Metadata),
    return_url: Type.Optional(HttpUrl('Buyer redirect after a payment made through the link.')),
    locale: Type.Optional(Type.Union(LOCALES.map((l) => Type.Literal(l)), { description: LOCALE_DESCRIPTION, default: 'auto' })),
    collect_phone: Type.Optional(Type.Boolean({ description: 'Whether the link page asks the buyer for a phone number.' })),
    max_payments: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'Succeeded payments after which the link closes; 1 is a single-use link.' })),
    expires_at: Type.Optional(Type.String({ format: 'date-time', description: 'When the link stops taking payments.' })),
  },
  { additionalProperties: false },
);
export type CreatePaymentLinkRequest = Static<typeof CreatePaymentLinkRequest>;

/** A payment link (D19). */
export const PaymentLink = Type.Object({
  id: Id('pl'),
  url: Type.String({ description: 'The public page: {PUBLIC_BASE_URL}/pay/<code>.' }),
  qr_svg_url: Type.String({ description: 'An SVG QR code of url (url + /qr.svg; /qr.png for a PNG).' }),
  active: Type.Boolean({ description: 'false once deactivated, expired or fully used.' }),
  payments_count: Type.Integer({ minimum: 0, description: 'Succeeded sessions made through the link.' }),
  description: Type.String(),
  amount: Type.Union([Decimal('Fixed price, in currency.'), Type.Null()]),
  currency: Type.String(),
  open_amount: Type.Boolean(),
  amount_min: Type.Union([Decimal('Open amount: least, TND.'), Type.Null()]),
  amount_max: Type.Union([Decimal('Open amount: most, TND.'), Type.Null()]),
  items: Type.Array(Item),
  metadata: Metadata,
  return_url: Type.String(),
  locale: Locale,
  collect_phone: Type.Boolean(),
  max_payments: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()]),
  expires_at: Type.Union([DateTime, Type.Null()]),
  livemode: Type.Boolean(),
  created_at: DateTime,
});
export type PaymentLink = Static<typeof PaymentLink>;

export const PaymentLinkList = Type.Object({ data: Type.Array(PaymentLink), has_more: Type.Boolean() });
export type PaymentLinkList = Static<typeof PaymentLinkList>;

/** Query of GET /gateway/payment_links/: paging only, closed (issue 19). */
export const PaymentLinkListQuery = Type.Object({ ...PAGING }, { additionalProperties: false });
export type PaymentLinkListQuery = Static<typeof PaymentLinkListQuery>;
