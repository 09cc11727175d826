/**
 * The session service's messages: the commands it runs (API calls, the hosted page's, rates, refund records) and the session.* events, with the payload webhooks carry.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { CaptureMethod, CheckoutLink, Customer, CustomerList, Deleted, Item, Locale, Metadata, Original, PaymentMethod, PaymentMethodList, RefundStatus, SessionDetail, SessionList, SessionStatus } from '../api.js';
import { Language, PaymentStep, ThreeDSReturn } from './acquirer.js';
import { ApiContext, type CommandContract, DateTime, DecimalString, ExportPageSize, MerchantId, Mode, SessionRef } from './common.js';

/** A buyer on the hosted page, holding a verified link of this session. */
const LinkRef = Type.Object({ session_id: Type.String(), link_id: Type.String() });

/** An attempt the hosted page starts, on its buyer's link: its id chosen by checkout (a card is sealed for it). */
const AttemptOnPage = { ...LinkRef.properties, attempt_id: Type.String({ pattern: '^pa_[0-9A-Za-z]{20,}$' }) };

/** What the hosted page needs to know of a session (from the session service). */
export const CheckoutView = Type.Object({
  session_id: Type.String(),
  status: SessionStatus,
  merchant_name: Type.String(),
  livemode: Type.Boolean(),
  order_number: Type.String(),
  amount: Type.String(),
  original: Original,
  description: Type.String(),
  items: Type.Array(Item),
  return_url: Type.String(),
  cancel_url: Type.String(),
  max_attempts: Type.Integer(),
  attempts_count: Type.Integer(),
  last_failure_code: Type.String(),
  last_failure_message: Type.String(),
  locale: Locale,
  /** The merchant is suspended: the page takes no payment (optional for pages of an older version). */
  merchant_suspended: Type.Optional(Type.Boolean()),
  /** Whose session it is: the page shows the merchant's branding (optional for sessions services of an older version). */
  merchant_id: Type.Optional(MerchantId),
  /** D24: the customer's saved cards the buyer may pay with by their security code (unexpired, attached); absent without a customer. */
  saved_cards: Type.Optional(
    Type.Array(Type.Object({ id: Type.String(), card_brand: Type.String(), card_last_four: Type.String(), exp_month: Type.Integer(), exp_year: Type.Integer() })),
  ),
  /** D24: whether the page offers to save the card (on_session), says it will be saved for the merchant's charges (off_session), or neither. */
  save_card: Type.Optional(Type.Union([Type.Literal('off'), Type.Literal('on_session'), Type.Literal('off_session')])),
  /** D26: the wallets the page offers beside the card form (Flouci: always in test mode, in live mode once the merchant saved its keys). */
  wallets: Type.Optional(Type.Array(Type.Literal('flouci'))),
});
export type CheckoutView = Static<typeof CheckoutView>;

/**
 * A payment step as the hosted page gets it from the session service: the
 * adapter's answer and, when the session recorded its outcome with it, the
 * session as it now stands, so the page can answer without looking again.
 */
export const CheckoutStep = Type.Object({ ...PaymentStep.properties, session: Type.Optional(CheckoutView) });
export type CheckoutStep = Static<typeof CheckoutStep>;

/** The session as merchants receive it in webhooks (INTERFACE 6.2, D11 adds livemode). */
export const SessionEventPayload = Type.Object({
  id: Type.String(),
  order_number: Type.String(),
  merchant_reference: Type.String(),
  order_id: Type.String(),
  amount: Type.String(),
  currency: Type.String(),
  description: Type.String(),
  status: SessionStatus,
  livemode: Type.Boolean(),
  buyer: Type.Object({ first_name: Type.String(), last_name: Type.String(), email: Type.String(), phone: Type.String() }),
  items: Type.Array(Item),
  metadata: Metadata,
  original: Original,
  paid_at: Type.Optional(DateTime),
  /** D22: present on manual sessions; session.authorized carries authorized_at and amount_authorized, session.succeeded adds amount_captured. */
  capture_method: Type.Optional(CaptureMethod),
  authorized_at: Type.Optional(DateTime),
  amount_authorized: Type.Optional(Type.String()),
  amount_captured: Type.Optional(Type.String()),
  payment: Type.Optional(
    Type.Object({
      method: Type.String(),
      card_brand: Type.String(),
      card_last_four: Type.String(),
      card_country: Type.String(),
      /** Absent on session.authorized: the fee is taken on what is captured (D22). */
      fee_amount: Type.Optional(Type.String()),
      net_amount: Type.Optional(Type.String()),
    }),
  ),
  last_failure_code: Type.Optional(Type.String()),
  last_failure_message: Type.Optional(Type.String()),
  attempts_count: Type.Optional(Type.Integer()),
  can_retry: Type.Optional(Type.Boolean()),
  /** D19: the payment link the session was made through. */
  payment_link: Type.Optional(Type.String()),
  /** refund.created and refund.updated: the refund (D10, D16). */
  refund: Type.Optional(
    Type.Object({
      refund_id: Type.String(),
      amount: Type.String(),
      automated_refund: Type.Boolean(),
      reason: Type.String(),
      metadata: Metadata,
      status: RefundStatus,
      /** When the refund was made: the day its balance transaction counts on (D21), whichever of its events comes first. */
      created_at: Type.Optional(DateTime),
      epg_error_message: Type.Optional(Type.String()),
    }),
  ),
});
export type SessionEventPayload = Static<typeof SessionEventPayload>;

/**
 * What a buyer's receipt needs beside the webhook payload (D20): whose shop
 * the buyer paid, and the session's language (D18). Never sent to merchants.
 */
export const ReceiptFacts = Type.Object({ merchant_name: Type.String(), locale: Locale });
export type ReceiptFacts = Static<typeof ReceiptFacts>;

/** Data of every session.* event: who it belongs to, and the webhook payload. */
export const SessionEventData = Type.Object({
  merchant_id: MerchantId,
  webhook_url: Type.String(),
  session: SessionEventPayload,
  /** On session.succeeded, refund.created and refund.updated; absent from events of publishers that predate it. */
  receipt: Type.Optional(ReceiptFacts),
  /** On refund.updated: an operator resolved the refund (D16), whose owners the notifier tells (D20); never in a webhook. */
  resolved_by: Type.Optional(Type.Literal('operator')),
});
export type SessionEventData = Static<typeof SessionEventData>;

/**
 * How the payment attempts of an account went over a range of Africa/Tunis
 * days (D21, the dashboard's Home page): each day's approved and declined
 * attempts (every day of the range present), and the declines of the whole
 * range by failure code, most first. An attempt counts on the Tunis day it
 * was made, once it has its outcome.
 */
export const SessionStats = Type.Object({
  data: Type.Array(
    Type.Object({
      date: Type.String({ format: 'date' }),
      attempts_succeeded: Type.Integer({ minimum: 0 }),
      attempts_failed: Type.Integer({ minimum: 0 }),
    }),
  ),
  failures: Type.Array(Type.Object({ failure_code: Type.String(), count: Type.Integer({ minimum: 1 }) })),
  livemode: Type.Boolean(),
});
export type SessionStats = Static<typeof SessionStats>;

/** A payment link's id (D19), as checkout makes them. */
const PaymentLinkId = Type.String({ pattern: '^pl_[0-9A-Za-z]{20,}$' });

/** A customer of the account (D24). */
const CustomerRef = Type.Object({ context: ApiContext, customer_id: Type.String() });

/** The commands the session service runs. */
export const sessionCommands = {
  // API calls, sent by the gateway
  /** `payment_link`: set by checkout alone, for a session made on a payment link's page (D19); never from a merchant's body. */
  'session.create': {
    service: 'session',
    request: Type.Object({ context: ApiContext, body: Type.Unknown(), payment_link: Type.Optional(PaymentLinkId) }),
    reply: SessionDetail,
  },
  /**
   * D24: a create that charges a saved card without the buyer (off_session):
   * session.create's use case, on the slow lane, since it waits on the acquirer.
   */
  'session.charge': { service: 'session', lane: 'slow', request: Type.Object({ context: ApiContext, body: Type.Unknown() }), reply: SessionDetail },
  'session.get': { service: 'session', request: SessionRef, reply: SessionDetail },
  /** A session and the payload its events carry, built by the session service alone: the refund's events carry it as is. */
  'session.get_for_event': { service: 'session', request: SessionRef, reply: Type.Object({ session: SessionDetail, event: SessionEventPayload, receipt: Type.Optional(ReceiptFacts) }) },
  /** `payment_link`: the dashboard's filter of a link's payments (D19), outside `query`, which the API passes as the merchant gave it. */
  'session.list': {
    service: 'session',
    request: Type.Object({
      context: ApiContext,
      query: Type.Record(Type.String(), Type.Unknown()),
      page_size: ExportPageSize,
      payment_link: Type.Optional(PaymentLinkId),
      /** D24: the dashboard's filter of a customer's payments, likewise. */
      customer: Type.Optional(Type.String({ pattern: '^cus_[0-9A-Za-z]{20,}$' })),
    }),
    reply: SessionList,
  },
  /** The Home page's attempts and declines over `query` {from, to} (Tunis dates, as the daily report takes them); read from per-day counts, never the attempts. */
  'session.stats': { service: 'session', request: Type.Object({ context: ApiContext, query: Type.Record(Type.String(), Type.Unknown()) }), reply: SessionStats },
  'session.cancel': { service: 'session', request: SessionRef, reply: SessionDetail },
  /**
   * D29: a deactivated payment link's open sessions (CREATED or PENDING) canceled,
   * each as a cancel does it (session.canceled); a session whose attempt is under
   * way is left to finish. How many were canceled.
   */
  'session.cancel_for_payment_link': {
    service: 'session',
    request: Type.Object({ context: ApiContext, payment_link: PaymentLinkId }),
    reply: Type.Object({ canceled: Type.Integer({ minimum: 0 }) }),
  },
  /** D22: captures an AUTHORIZED session's hold, in full or in part; waits on the acquirer. */
  'session.capture': { service: 'session', lane: 'slow', request: Type.Object({ context: ApiContext, session_id: Type.String(), body: Type.Unknown() }), reply: SessionDetail },
  'session.issue_checkout': { service: 'session', request: SessionRef, reply: CheckoutLink },
  // Customers and their saved cards (D24), from the API and the dashboard.
  'customer.create': { service: 'session', request: Type.Object({ context: ApiContext, body: Type.Unknown() }), reply: Customer },
  'customer.get': { service: 'session', request: CustomerRef, reply: Customer },
  'customer.list': { service: 'session', request: Type.Object({ context: ApiContext, query: Type.Record(Type.String(), Type.Unknown()) }), reply: CustomerList },
  'customer.delete': { service: 'session', request: CustomerRef, reply: Deleted },
  'payment_method.list': { service: 'session', request: CustomerRef, reply: PaymentMethodList },
  'payment_method.delete': { service: 'session', request: Type.Object({ context: ApiContext, customer_id: Type.String(), payment_method_id: Type.String() }), reply: Deleted },
  // the hosted page, sent by checkout
  'checkout.view': { service: 'session', request: LinkRef, reply: CheckoutView },
  'checkout.cancel': { service: 'session', request: LinkRef, reply: CheckoutView },
  'attempt.pay': {
    service: 'session',
    lane: 'slow',
    request: Type.Object({
      ...AttemptOnPage,
      /** The card typed, sealed for the adapter and this attempt; or, paying with a saved card (D24), `saved_card`. */
      card: Type.Optional(Type.String({ minLength: 1, maxLength: 4096 })),
      /** D24: one of the session's customer's saved cards, with its security code sealed for the adapter and this attempt. */
      saved_card: Type.Optional(Type.Object({ payment_method: Type.String({ pattern: '^pm_[0-9A-Za-z]{20,}$' }), code: Type.String({ minLength: 1, maxLength: 4096 }) })),
      term_url: Type.String(),
      language: Language,
      /** The buyer's address as the hosted page saw it, for the acquirer (D30); the session adds the buyer's email and phone. */
      buyer_ip: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
      /** D24: the buyer ticked "Save card for future payments" (a session with save_card on_session). */
      save_card: Type.Optional(Type.Boolean()),
    }),
    reply: CheckoutStep,
  },
  /** D26: the buyer pressed "Pay with Flouci": an attempt starts and the adapter starts the wallet's payment (answered redirect). */
  'attempt.pay_wallet': {
    service: 'session',
    lane: 'slow',
    request: Type.Object({
      ...AttemptOnPage,
      wallet: Type.Literal('flouci'),
      /** This attempt's address on the hosted page, where the wallet sends the buyer back. */
      return_url: Type.String({ minLength: 1, maxLength: 2048 }),
      /** The public address the wallet posts its notice to. */
      webhook_url: Type.String({ minLength: 1, maxLength: 2048 }),
      language: Language,
    }),
    reply: CheckoutStep,
  },
  /** D26: the buyer is back from the wallet's page: the adapter verifies the attempt's payment, and its outcome is recorded. */
  'attempt.finish_wallet': {
    service: 'session',
    lane: 'slow',
    request: Type.Object(AttemptOnPage),
    reply: CheckoutStep,
  },
  'attempt.finish_3ds': {
    service: 'session',
    lane: 'slow',
    request: Type.Object({ session_id: Type.String(), link_id: Type.String(), attempt_id: Type.String(), returned: ThreeDSReturn }),
    reply: CheckoutStep,
  },
  /**
   * Sent by the refund service before it answers a refund call (D16): the
   * session counts the refund (`held`: confirmed or held for an operator) or
   * stops counting it (`failed`), once per refund whatever the order of this
   * command and the refund events, so a read after the answer shows it.
   */
  'session.record_refund': {
    service: 'session',
    request: Type.Object({ session_id: Type.String(), refund_id: Type.String({ pattern: '^re_' }), amount: DecimalString, outcome: Type.Union([Type.Literal('held'), Type.Literal('failed')]) }),
    reply: Type.Object({ amount_refunded: DecimalString }),
  },
  'rate.set': {
    operator: true,
    service: 'session',
    request: Type.Object({ merchant_id: MerchantId, mode: Mode, currency: Type.String(), rate: Type.String() }),
    reply: Type.Object({ merchant_id: MerchantId, mode: Mode, currency: Type.String(), rate: Type.String() }),
  },
  'rate.remove': {
    operator: true,
    service: 'session',
    request: Type.Object({ merchant_id: MerchantId, mode: Mode, currency: Type.String() }),
    reply: Type.Object({ merchant_id: MerchantId, mode: Mode, currency: Type.String(), removed: Type.Boolean() }),
  },
  /**
   * D29: whether the account can take `currency` (TND, or a currency it has a rate for),
   * by the rule session.create applies; refused as session.create refuses it
   * (422 validation-error, currency_unsupported on currency). Checkout asks it
   * when a payment link is made.
   */
  'rate.check': {
    service: 'session',
    request: Type.Object({ context: ApiContext, currency: Type.String({ minLength: 3, maxLength: 3 }) }),
    reply: Type.Object({ rate: Type.String() }),
  },
  'rate.list': {
    operator: true,
    readOnly: true,
    service: 'session',
    request: Type.Object({ merchant_id: MerchantId, mode: Mode }),
    reply: Type.Object({ data: Type.Array(Type.Object({ currency: Type.String(), rate: Type.String(), updated_at: DateTime })) }),
  },
} as const satisfies Record<string, CommandContract>;

/** A saved card attached to its customer or detached from it (D24), for the account's webhooks and the adapter, which unbinds it. */
export const PaymentMethodEventData = Type.Object({ merchant_id: MerchantId, livemode: Type.Boolean(), payment_method: PaymentMethod });
export type PaymentMethodEventData = Static<typeof PaymentMethodEventData>;

/** The session.* events (and checkout.session.expired) the session service publishes, and its customers' payment_method.* (D24). */
export const sessionEvents = {
  'session.canceled': SessionEventData,
  'session.succeeded': SessionEventData,
  'session.failed': SessionEventData,
  'session.expired': SessionEventData,
  'checkout.session.expired': SessionEventData,
  'session.authorized': SessionEventData,
  'payment_method.attached': PaymentMethodEventData,
  'payment_method.detached': PaymentMethodEventData,
  /**
   * Internal: an AUTHORIZED session was canceled or lapsed (D22), so its hold
   * is to be released at the acquirer (reverse.do); the adapter does it, once.
   */
  'session.hold_canceled': Type.Object({
    session_id: Type.String(),
    attempt_id: Type.String({ pattern: '^pa_' }),
    merchant_id: MerchantId,
    livemode: Type.Boolean(),
    reason: Type.Union([Type.Literal('canceled'), Type.Literal('expired')]),
  }),
} as const satisfies Record<string, TSchema>;
