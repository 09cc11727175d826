/** View models of the hosted checkout pages: what a route hands to a render function. */
import type { CardField, CardFormValues } from '../domain/card-form.js';
import type { BrandView } from '../domain/branding.js';

export interface ItemView { name: string; quantity: number; unit_price?: string; description?: string }
export interface OrderView {
  merchantName: string;
  /** TND decimal string, e.g. "12.500": what the card is charged. */
  amount: string;
  /** Present only when the merchant asked in another currency: the requested amount and code. */
  original?: { amount: string; currency: string };
  description: string;
  items: ItemView[];
  orderNumber: string;
  livemode: boolean;
}
export interface PaymentPageView {
  order: OrderView;
  /** Where the form posts (same origin). */
  actionUrl: string;
  /** The buyer-cancel link's href. */
  cancelHref: string;
  /** A message about the previous attempt, shown above the form (e.g. "Your card was declined."), in the page's language (D18). */
  notice?: string;
  /** Per-field problems from the page's own checks, shown beside the field, in the page's language. */
  fieldErrors?: Partial<Record<CardField, string>>;
  /** Values to put back after a field error. */
  values?: CardFormValues;
  /** Attempts left, shown when a previous attempt failed. */
  attemptsLeft?: number;
  /** The merchant's branding (D20): its logo's path and accent colour, either absent. */
  brand?: BrandView;
  /** D24: on_session offers an unticked "save card" box; off_session says the merchant may charge the card later. */
  saveCard?: 'on_session' | 'off_session';
  /** D24: the customer's saved cards offered, each paid with by its security code; the usual form is then "Use another card". */
  savedCards?: readonly { id: string; label: string }[];
  /** D24: the saved card chosen when its security code was refused, and the refusal in the page's language. */
  savedRefused?: { paymentMethod: string; error: string };
  /** D26: where "Pay with Flouci" posts (same origin), when the session offers Flouci; no button without it. */
  flouciActionUrl?: string;
}
