/**
 * The pieces the public API's schemas are built of (api.ts and its siblings):
 * dates, amounts, ids, line items, metadata, URLs, the hosted page's language,
 * and the paging and date-range parameters every list takes.
 */
import { Type } from '@sinclair/typebox';

export const DateTime = Type.String({ format: 'date-time' });
export const Decimal = (description: string) => Type.String({ pattern: '^-?(0|[1-9][0-9]*)(\\.[0-9]+)?$', description });
export const Id = (prefix: string) => Type.String({ pattern: `^${prefix}_[0-9A-Za-z]{20,}$` });

/** A line item; unknown members are allowed (INTERFACE 4.1). */
export const Item = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    quantity: Type.Integer({ minimum: 1 }),
    unit_price: Type.Optional(Decimal('Unit price, a decimal string.')),
    description: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { additionalProperties: true },
);

/** D6: at most 50 keys of at most 40 characters, string values of at most 500. */
export const Metadata = Type.Record(Type.String(), Type.String({ maxLength: 500 }), {
  maxProperties: 50,
  propertyNames: { maxLength: 40 },
  description: 'Arbitrary key/values echoed back, for example on webhooks.',
});

/** An absolute http(s) URL (https in live mode), without user information (D29). */
export const HttpUrl = (description: string) => Type.String({ minLength: 1, maxLength: 2048, format: 'uri', description: `${description} Absolute http or https (https in live mode), without a user or password.` });

/** Language of the hosted page (D18): `auto` follows the buyer's Accept-Language, then French. */
export const LOCALES = ['fr', 'en', 'ar', 'auto'] as const;
export const LOCALE_DESCRIPTION = 'Language of the hosted page: fr, en, ar (right to left), or auto for the buyer browser language, then French.';
export const Locale = Type.Union(LOCALES.map((l) => Type.Literal(l)), { description: LOCALE_DESCRIPTION });
export type Locale = (typeof LOCALES)[number];

/** The paging parameters of every list (4.6) as received: strings, checked by parseListQuery (D6). */
export const PAGING = {
  limit: Type.Optional(Type.String()),
  starting_after: Type.Optional(Type.String()),
  ending_before: Type.Optional(Type.String()),
};

/** The date range of the money lists (D21): when the move was made. */
export const CREATED_RANGE = {
  'created[gte]': Type.Optional(Type.String({ format: 'date-time' })),
  'created[lte]': Type.Optional(Type.String({ format: 'date-time' })),
};
