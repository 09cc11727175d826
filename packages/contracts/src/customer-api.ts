/**
 * The public API's customers and their saved cards (D24): the create request,
 * the customer, the payment method and their lists.
 */
import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Id, Metadata, PAGING } from './api-parts.js';

/** A customer's id (D7): anything else names no customer and is never looked up. */
export const CUSTOMER_ID = /^cus_[0-9A-Za-z]{20,}$/;
/** A payment method's id (D7), likewise. */
export const PAYMENT_METHOD_ID = /^pm_[0-9A-Za-z]{20,}$/;

/** POST /gateway/customers/ (D24): every field optional; `external_id` makes the create idempotent. */
export const CreateCustomerRequest = Type.Object(
  {
    email: Type.Optional(Type.String({ minLength: 1, maxLength: 255, format: 'email' })),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    phone: Type.Optional(Type.String({ minLength: 1, maxLength: 20 })),
    metadata: Type.Optional(Metadata),
    external_id: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: "The merchant's own id of the customer: a create with one the account already has answers 200 with that customer." }),
    ),
  },
  { additionalProperties: false },
);
export type CreateCustomerRequest = Static<typeof CreateCustomerRequest>;

const CARD_USAGES = ['on_session', 'off_session'] as const;
export type CardUsage = (typeof CARD_USAGES)[number];
export const CardUsage = Type.Union(
  CARD_USAGES.map((u) => Type.Literal(u)),
  { description: 'on_session: the buyer pays with it on the hosted page, by its security code; off_session: the merchant may also charge it without the buyer.' },
);

/** A saved card (D24). The acquirer's binding is never shown. */
export const PaymentMethod = Type.Object({
  id: Id('pm'),
  customer: Id('cus'),
  type: Type.Literal('card'),
  card_brand: Type.String(),
  card_last_four: Type.String(),
  exp_month: Type.Integer({ minimum: 1, maximum: 12 }),
  exp_year: Type.Integer(),
  usage: CardUsage,
  created_at: DateTime,
});
export type PaymentMethod = Static<typeof PaymentMethod>;

export const PaymentMethodList = Type.Object({ data: Type.Array(PaymentMethod), has_more: Type.Boolean() });
export type PaymentMethodList = Static<typeof PaymentMethodList>;

/** A customer (D24), with the saved cards it may still pay with. */
export const Customer = Type.Object({
  id: Id('cus'),
  external_id: Type.Union([Type.String(), Type.Null()]),
  email: Type.Union([Type.String(), Type.Null()]),
  name: Type.Union([Type.String(), Type.Null()]),
  phone: Type.Union([Type.String(), Type.Null()]),
  metadata: Metadata,
  livemode: Type.Boolean(),
  created_at: DateTime,
  payment_methods: Type.Array(PaymentMethod),
});
export type Customer = Static<typeof Customer>;

export const CustomerList = Type.Object({ data: Type.Array(Customer), has_more: Type.Boolean() });
export type CustomerList = Static<typeof CustomerList>;

/** Query of GET /gateway/customers/: paging, and the exact `email` or `external_id`. */
export const CustomerListQuery = Type.Object(
  {
    ...PAGING,
    email: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
    external_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  },
  { additionalProperties: false },
);
export type CustomerListQuery = Static<typeof CustomerListQuery>;

/** The answer of a DELETE (D24): what was deleted. */
export const Deleted = Type.Object({ id: Type.String(), deleted: Type.Literal(true) });
export type Deleted = Static<typeof Deleted>;
