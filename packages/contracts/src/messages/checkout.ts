/**
 * The checkout service's messages: payment links (D19), which the API (and
 * the dashboard) create, read, list and deactivate. Their payments are
 * sessions the checkout service makes through session.create.
 */
import { Type, type Static } from '@sinclair/typebox';
import { PaymentLink, PaymentLinkList } from '../api.js';
import { ApiContext, type CommandContract, MerchantId } from './common.js';

const PaymentLinkRef = Type.Object({ context: ApiContext, payment_link_id: Type.String() });

/**
 * A merchant's branding on the hosted page, the payment link page and the
 * receipts: an accent colour (#rrggbb) and a logo the checkout serves at
 * `logo_url` (content-addressed: a new logo is a new URL), either absent.
 */
export const Branding = Type.Object({
  merchant_id: MerchantId,
  accent_color: Type.Union([Type.String({ pattern: '^#[0-9a-f]{6}$' }), Type.Null()]),
  /** Absolute, on the checkout's PUBLIC_BASE_URL. */
  logo_url: Type.Union([Type.String(), Type.Null()]),
  logo_type: Type.Union([Type.Literal('image/png'), Type.Literal('image/svg+xml'), Type.Null()]),
});
export type Branding = Static<typeof Branding>;

/** The largest logo taken, decoded (D20 branding); its base64 in a command is a third larger. */
export const BRAND_LOGO_MAX_BYTES = 256 * 1024;

/** The commands the checkout service runs. */
export const checkoutCommands = {
  'payment_link.create': { service: 'checkout', request: Type.Object({ context: ApiContext, body: Type.Unknown() }), reply: PaymentLink },
  'payment_link.get': { service: 'checkout', request: PaymentLinkRef, reply: PaymentLink },
  'payment_link.list': { service: 'checkout', request: Type.Object({ context: ApiContext, query: Type.Record(Type.String(), Type.Unknown()) }), reply: PaymentLinkList },
  'payment_link.deactivate': { service: 'checkout', request: PaymentLinkRef, reply: PaymentLink },
  // A merchant's branding: the dashboard sends these for its signed-in user's own merchant; the notifier reads it for receipts.
  'branding.get': { service: 'checkout', request: Type.Object({ merchant_id: MerchantId }), reply: Branding },
  /**
   * Sets what it names: `accent_color` (#RRGGBB, any case), `logo` (a PNG or
   * an SVG, base64; `writeOnly`: no audit or log keeps its bytes). A refusal
   * changes nothing.
   */
  'branding.set': {
    service: 'checkout',
    request: Type.Object({
      merchant_id: MerchantId,
      accent_color: Type.Optional(Type.String()),
      logo: Type.Optional(Type.Object({ content_type: Type.String(), data_base64: Type.String({ maxLength: Math.ceil((BRAND_LOGO_MAX_BYTES * 4) / 3) + 8, writeOnly: true }) })),
    }),
    reply: Branding,
  },
  'branding.remove_logo': { service: 'checkout', request: Type.Object({ merchant_id: MerchantId }), reply: Branding },
} as const satisfies Record<string, CommandContract>;
