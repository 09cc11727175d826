/**
 * The acquirer-adapter's messages: the payment steps it runs at the acquirer, terminals and fees, and the payment.* events.
 */
import { LANGUAGES, type Language as LanguageName } from '@gateway/i18n';
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { CaptureMethod, CardUsage } from '../api.js';
import { type CommandContract, DateTime, DecimalString, MerchantId, MerchantRef, Mode, SecretsRewrap } from './common.js';

/** A language people read us in (the language package's): the page a buyer paid on (D18), a mail, a person's dashboard. */
export const Language = Type.Unsafe<LanguageName>({ type: 'string', enum: [...LANGUAGES] });
export type Language = LanguageName;

/** How an attempt is paid: by card, or with the Flouci wallet (D26). */
export const PaymentMethodType = Type.Union([Type.Literal('card'), Type.Literal('flouci')]);
export type PaymentMethodType = Static<typeof PaymentMethodType>;

/** An attempt the session service has just started (CREATED/PENDING → PROCESSING). */
export const StartedAttempt = Type.Object({
  attempt_id: Type.String({ pattern: '^pa_' }),
  attempt_number: Type.Integer({ minimum: 1 }),
  session_id: Type.String(),
  merchant_id: MerchantId,
  livemode: Type.Boolean(),
  order_number: Type.String(),
  amount: Type.String(),
  description: Type.String(),
  /** D22: `manual` holds the amount (registerPreAuth.do); automatic when absent. */
  capture_method: Type.Optional(CaptureMethod),
  /** D24: the card is to be saved for this customer, for this use, if the payment is approved. */
  save_card: Type.Optional(Type.Object({ customer_id: Type.String({ pattern: '^cus_' }), usage: CardUsage })),
  /** D26: how it pays, when the sender says (the session's check of a stuck attempt); a card when absent. */
  payment_method_type: Type.Optional(PaymentMethodType),
});
export type StartedAttempt = Static<typeof StartedAttempt>;

/** D24: a card saved with an approved payment, as the adapter keeps its binding under payment_method_id. */
export const SavedCard = Type.Object({
  payment_method_id: Type.String({ pattern: '^pm_' }),
  customer_id: Type.String({ pattern: '^cus_' }),
  card_brand: Type.String(),
  card_last_four: Type.String(),
  exp_month: Type.Integer({ minimum: 1, maximum: 12 }),
  exp_year: Type.Integer({ minimum: 2000, maximum: 2999 }),
  usage: CardUsage,
});
export type SavedCard = Static<typeof SavedCard>;

const PaymentRef = {
  attempt_id: Type.String({ pattern: '^pa_' }),
  session_id: Type.String(),
  merchant_id: MerchantId,
  livemode: Type.Boolean(),
  card_brand: Type.String(),
  card_last_four: Type.String(),
  /** D26: by card or with a wallet (card when absent: an adapter of an older version). */
  payment_method_type: Type.Optional(PaymentMethodType),
};

/** An approved payment, as payment.approved announces it. */
const PaymentApproved = Type.Object({
  ...PaymentRef,
  /** What was captured (TND): the refundable total. */
  amount: Type.String(),
  card_country: Type.String(),
  fee_amount: Type.String(),
  net_amount: Type.String(),
  paid_at: DateTime,
  /** D24: the card saved with the payment, when it was to be saved and the acquirer bound it. */
  saved_card: Type.Optional(SavedCard),
});

/** A manual session's approved payment, holding `amount` until captured (D22), as payment.authorized announces it. */
const PaymentAuthorized = Type.Object({
  ...PaymentRef,
  /** What is held (TND): at most this is captured. */
  amount: Type.String(),
  card_country: Type.String(),
  authorized_at: DateTime,
  /** D24: as payment.approved's. */
  saved_card: Type.Optional(SavedCard),
});

/** A hold captured (deposit.do, D22), as payment.captured announces it: an approved payment of what was captured, the fee on it. */
const PaymentCaptured = PaymentApproved;

/** A capture that did not happen (refused, or found never done): the hold stands, as payment.capture_failed announces it. */
const PaymentCaptureFailed = Type.Object({
  /** The capture that ended so, as payment.capture named it: only that claim of the session's is released. */
  capture_id: Type.String({ pattern: '^cap_' }),
  attempt_id: Type.String({ pattern: '^pa_' }),
  session_id: Type.String(),
  merchant_id: MerchantId,
  livemode: Type.Boolean(),
  message: Type.String(),
});

/** A declined payment, as payment.declined announces it. */
const PaymentDeclined = Type.Object({ ...PaymentRef, failure_code: Type.String(), failure_message: Type.String() });

/**
 * A form the buyer's browser posts to another party (D30): an issuer's ACS
 * (3-D Secure), or its 3DS Method URL. The page posts `fields` to `url` as
 * they are; which fields a step takes is the acquirer's protocol, not the page's.
 */
export const BrowserForm = Type.Object({ url: Type.String({ minLength: 1, maxLength: 2048 }), fields: Type.Record(Type.String(), Type.String()) });
export type BrowserForm = Static<typeof BrowserForm>;

/** The longest 3-D Secure answer (PaRes, cres) passed on: signed and encoded, it can run to tens of KiB. */
const PA_RES_MAX_LENGTH = 48 * 1024;

/** How the buyer came back from a 3-D Secure step, for the adapter to go on with the payment (D30). */
export const ThreeDSReturn = Type.Union([
  /** The 3DS Method frame loaded (`completed`), or its 10 s passed first: the card goes to the acquirer again. */
  Type.Object({ kind: Type.Literal('method'), completed: Type.Boolean() }),
  /** 3-D Secure 1: the ACS posted PaRes back. */
  Type.Object({ kind: Type.Literal('pa_res'), pa_res: Type.String({ minLength: 1, maxLength: PA_RES_MAX_LENGTH }) }),
  /** 3-D Secure 2: the ACS posted cres back; the acquirer's 3-D Secure server knows the result, and the adapter finishes the order. */
  Type.Object({ kind: Type.Literal('cres'), cres: Type.String({ minLength: 1, maxLength: PA_RES_MAX_LENGTH }) }),
  /** The browser came back by GET to the order's return URL: the acquirer may have finished the order itself, and its status tells. */
  Type.Object({ kind: Type.Literal('return') }),
]);
export type ThreeDSReturn = Static<typeof ThreeDSReturn>;

/** The buyer as the acquirer asks to know them with the card (D30: their address for 3-D Secure 2, an email or a phone for Visa). */
export const BuyerContact = Type.Object({
  ip: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  /** As long as a session's buyer email may be (the API's 255). */
  email: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  phone: Type.Optional(Type.String({ minLength: 1, maxLength: 32 })),
});
export type BuyerContact = Static<typeof BuyerContact>;

/** The answer to a payment step, as the hosted page acts on it. */
export const PaymentStep = Type.Object({
  outcome: Type.Union([Type.Literal('approved'), Type.Literal('declined'), Type.Literal('method'), Type.Literal('challenge'), Type.Literal('redirect'), Type.Literal('pending')]),
  /**
   * From the adapter, the outcome it has just committed (and announced): the
   * session records it at once instead of waiting for the event.
   */
  approved: Type.Optional(PaymentApproved),
  /** With outcome approved, for a manual session: the amount is held, not captured (D22). */
  authorized: Type.Optional(PaymentAuthorized),
  declined: Type.Optional(PaymentDeclined),
  failure_code: Type.Optional(Type.String()),
  failure_message: Type.Optional(Type.String()),
  /** With outcome challenge: the form that takes the buyer to the issuer's ACS to authenticate (3-D Secure 1 or 2), posted by the browser. */
  challenge: Type.Optional(BrowserForm),
  /** With outcome method: the 3DS Method form, posted in a hidden frame for at most 10 s before the payment goes on (payment.finish_3ds, kind method). */
  method: Type.Optional(BrowserForm),
  /** With outcome redirect: the wallet's page the buyer is sent to (D26); they come back to the attempt's return address. */
  redirect: Type.Optional(Type.Object({ url: Type.String({ minLength: 1, maxLength: 2048 }) })),
});
export type PaymentStep = Static<typeof PaymentStep>;

/**
 * A getOrderStatusExtended.do answer as a live terminal gave it, for an
 * operator going live (ACQUIRER.md "Answers as deployed"): how it is written,
 * never what it says of a card. Only codes, the order status and names and
 * JSON types of members are read out of it.
 */
export const ProbedAnswer = Type.Object({
  /** `rejected`: an error code 2 or 5 (access denied); `accepted`: success or 6 (no such order: the terminal was let in to look); `unknown` otherwise. */
  credentials: Type.Union([Type.Literal('accepted'), Type.Literal('rejected'), Type.Literal('unknown')]),
  /** Each place the answer carries an error code, as written; none when it carries none (a success, in the protocol). */
  error_fields: Type.Array(
    Type.Object({
      field: Type.Union([Type.Literal('errorCode'), Type.Literal('ErrorCode'), Type.Literal('error.code')]),
      type: Type.Union([Type.Literal('string'), Type.Literal('number'), Type.Literal('other')]),
      /** The code it holds; null when it holds no whole number. */
      code: Type.Union([Type.Integer(), Type.Null()]),
    }),
  ),
  /** The acquirer's own words (errorMessage), long digit runs blotted out; null when it gave none. */
  error_message: Type.Union([Type.String(), Type.Null()]),
  /** Whether the answer describes an order: no error, and an orderStatus. */
  order_found: Type.Boolean(),
  order_status: Type.Union([Type.Integer(), Type.Null()]),
  /** Whether paymentAmountInfo is present: the terminal answers in response version 3 or later. */
  payment_amount_info: Type.Boolean(),
  /** Which member of cardAuthInfo carries the card number (maskedPan, or only pan), and whether it came masked; null without one. */
  card_number: Type.Union([Type.Object({ field: Type.Union([Type.Literal('maskedPan'), Type.Literal('pan')]), masked: Type.Boolean() }), Type.Null()]),
  /** Every member's JSON type by name, an object's own members one level down ("object" deeper): no value. */
  shape: Type.Record(Type.String(), Type.Union([Type.String(), Type.Record(Type.String(), Type.String())])),
});
export type ProbedAnswer = Static<typeof ProbedAnswer>;

/** How an operator names an order at the acquirer: printable characters, as the protocol's order numbers and ids are. */
const AcquirerOrderKey = Type.String({ minLength: 1, maxLength: 64, pattern: '^[!-~]+$' });

export const TerminalStatus = Type.Union([Type.Literal('active'), Type.Literal('inactive'), Type.Literal('missing'), Type.Literal('rejected')]);
export type TerminalStatus = Static<typeof TerminalStatus>;

/**
 * D24: an attempt paid with a saved card: the adapter finds the card's binding
 * by payment method, merchant and mode; `card_brand` and `card_last_four` are
 * what the session shows of it, for the order.
 */
const SavedCardAttempt = {
  attempt: StartedAttempt,
  payment_method_id: Type.String({ pattern: '^pm_' }),
  card_brand: Type.String(),
  card_last_four: Type.String(),
  /** D26: by card or with a wallet (card when absent: an adapter of an older version). */
  payment_method_type: Type.Optional(PaymentMethodType),
};

/** The commands the acquirer-adapter runs. */
export const acquirerCommands = {
  'payment.authorize': {
    service: 'acquirer-adapter',
    lane: 'slow',
    request: Type.Object({
      attempt: StartedAttempt,
      /** The card, encrypted for the adapter alone (compact JWE). */
      card: Type.String({ minLength: 1, maxLength: 4096 }),
      /** Where the bank sends the buyer back after 3-D Secure (a POST) and where the acquirer returns the browser (a GET): this attempt's own address on the hosted page. */
      term_url: Type.String(),
      /** Who pays, as the acquirer asks to know them with the card (D30). */
      buyer: Type.Optional(BuyerContact),
      /** The page's language, for the acquirer's pages; French, the acquirer's own default, when absent. */
      language: Type.Optional(Language),
    }),
    reply: PaymentStep,
  },
  /**
   * D24: pays an attempt with a saved card, the buyer on the page giving its
   * security code (tii F); 3-D Secure may follow as for a typed card.
   */
  'payment.authorize_saved': {
    service: 'acquirer-adapter',
    lane: 'slow',
    request: Type.Object({
      ...SavedCardAttempt,
      /** The security code, sealed for the adapter alone and this attempt (compact JWE). */
      code: Type.String({ minLength: 1, maxLength: 4096 }),
      term_url: Type.String(),
      buyer: Type.Optional(BuyerContact),
      language: Type.Optional(Language),
    }),
    reply: PaymentStep,
  },
  /** D24: charges a saved card without the buyer (off-session, tii U). */
  'payment.charge_saved': {
    service: 'acquirer-adapter',
    lane: 'slow',
    request: Type.Object({
      ...SavedCardAttempt,
      /** Where the acquirer would send a browser: the gateway's own address (no buyer is there). */
      return_url: Type.String(),
      /** The address of whoever asked for the charge (the merchant's server), which the acquirer requires. */
      ip: Type.String({ minLength: 1, maxLength: 64 }),
    }),
    reply: PaymentStep,
  },
  /**
   * D26: starts a wallet payment for an attempt (Flouci's generate_payment):
   * answered `redirect` with the wallet's page, or declined when none could be
   * started (nothing can be paid then).
   */
  'payment.start_wallet': {
    service: 'acquirer-adapter',
    lane: 'slow',
    request: Type.Object({
      attempt: StartedAttempt,
      wallet: PaymentMethodType,
      /** This attempt's address on the hosted page: where the wallet sends the buyer back, paid or not. */
      return_url: Type.String({ minLength: 1, maxLength: 2048 }),
      /** Our public address the wallet posts its notice to: a hint that the adapter verifies, never a proof. */
      webhook_url: Type.String({ minLength: 1, maxLength: 2048 }),
      language: Type.Optional(Language),
    }),
    reply: PaymentStep,
  },
  /**
   * D26: asks the wallet where an attempt's payment stands (verify_payment, the
   * only proof) and records the outcome once, whoever asks first: the buyer's
   * return, the wallet's notice, or the sweep. `session_id`, when given, must
   * be the attempt's (the buyer's return names its session).
   */
  'payment.verify': {
    service: 'acquirer-adapter',
    lane: 'slow',
    request: Type.Object({ attempt_id: Type.String({ pattern: '^pa_[0-9A-Za-z]{20,}$' }), session_id: Type.Optional(Type.String()) }),
    reply: PaymentStep,
  },
  'payment.finish_3ds': {
    service: 'acquirer-adapter',
    lane: 'slow',
    request: Type.Object({ session_id: Type.String(), attempt_id: Type.String(), returned: ThreeDSReturn }),
    reply: PaymentStep,
  },
  /**
   * Asked by the session's sweep about an attempt left PROCESSING long past
   * any payment step (its replica died mid-payment, say): the adapter answers
   * the outcome it knows, or, having no order for it, records it as never sent
   * and declines it, so it can never be charged afterwards.
   */
  'payment.check': { service: 'acquirer-adapter', lane: 'slow', request: Type.Object({ attempt: StartedAttempt }), reply: PaymentStep },
  // asked by the session service before it takes a live session
  'terminal.check': { service: 'acquirer-adapter', request: MerchantRef, reply: Type.Object({ status: TerminalStatus }) },
  // operator commands, sent by gateway-admin (D13)
  'terminal.set': {
    operator: true,
    service: 'acquirer-adapter',
    request: Type.Object({
      merchant_id: MerchantId,
      mode: Type.Literal('live'),
      user: Type.String({ minLength: 1, maxLength: 100 }),
      /** writeOnly: a secret, never shown back (the audit log leaves it out). */
      password: Type.String({ minLength: 1, maxLength: 200, writeOnly: true }),
      active: Type.Boolean(),
    }),
    reply: Type.Object({ merchant_id: MerchantId, mode: Type.Literal('live'), user: Type.String(), active: Type.Boolean() }),
  },
  'fees.set': {
    operator: true,
    service: 'acquirer-adapter',
    request: Type.Object({ merchant_id: MerchantId, percent: Type.String(), fixed: Type.String() }),
    reply: Type.Object({ merchant_id: MerchantId, percent: DecimalString, fixed: DecimalString }),
  },
  'payment.refund': {
    service: 'acquirer-adapter',
    lane: 'slow',
    request: Type.Object({
      refund_id: Type.String({ pattern: '^re_' }),
      attempt_id: Type.String({ pattern: '^pa_' }),
      merchant_id: MerchantId,
      livemode: Type.Boolean(),
      /** TND, at most what is left of the captured amount. */
      amount: DecimalString,
      /** The whole captured amount with nothing refunded before: a reversal when the payment is not settled yet. */
      whole: Type.Boolean(),
    }),
    reply: Type.Object({
      /** refunded: confirmed; refused: definitive, nothing refunded; unconfirmed: an operator must find out. */
      outcome: Type.Union([Type.Literal('refunded'), Type.Literal('refused'), Type.Literal('unconfirmed')]),
      operation: Type.Union([Type.Literal('reverse'), Type.Literal('refund')]),
      /** The acquirer's words when the outcome is not refunded. */
      message: Type.String(),
    }),
  },
  /**
   * Captures a held payment (deposit.do, D22), once per attempt: a repeated
   * command reports where the capture stands. `unknown`: no answer came, and
   * the adapter's reconciliation learns the outcome (payment.captured or
   * payment.capture_failed); `unavailable`: the acquirer could not be asked,
   * nothing was sent and the hold stands; `refused`: the acquirer said no.
   */
  'payment.capture': {
    service: 'acquirer-adapter',
    lane: 'slow',
    request: Type.Object({
      /**
       * The session's claim of the hold for this capture: a capture id that
       * ended without capturing never deposits again, so a late or repeated
       * command cannot outlive the claim it was sent for.
       */
      capture_id: Type.String({ pattern: '^cap_' }),
      attempt_id: Type.String({ pattern: '^pa_' }),
      session_id: Type.String(),
      merchant_id: MerchantId,
      livemode: Type.Boolean(),
      /** TND, at most what is held. */
      amount: DecimalString,
    }),
    reply: Type.Object({
      outcome: Type.Union([Type.Literal('captured'), Type.Literal('refused'), Type.Literal('unavailable'), Type.Literal('unknown')]),
      captured: Type.Optional(PaymentCaptured),
      /** The acquirer's words when the outcome is not captured. */
      message: Type.String(),
    }),
  },
  'acquirer.secrets.rewrap': SecretsRewrap('acquirer-adapter'),
  'fees.get': {
    operator: true,
    readOnly: true,
    service: 'acquirer-adapter',
    request: MerchantRef,
    reply: Type.Object({ merchant_id: MerchantId, percent: Type.String(), fixed: Type.String(), default: Type.Boolean() }),
  },
  'terminal.get': {
    operator: true,
    readOnly: true,
    service: 'acquirer-adapter',
    /** Never the password: whether one is set. */
    request: Type.Object({ merchant_id: MerchantId, mode: Mode }),
    reply: Type.Object({
      merchant_id: MerchantId,
      mode: Mode,
      configured: Type.Boolean(),
      user_name: Type.Union([Type.String(), Type.Null()]),
      /** Whether payments may use it (`terminal set --inactive` turns it off); null when none is configured. */
      active: Type.Union([Type.Boolean(), Type.Null()]),
    }),
  },
  /**
   * An operator's probe of the merchant's live terminal before going live:
   * getOrderStatusExtended.do of an order the operator names (exactly one of
   * order_number and order_id), answered as the shape of the acquirer's
   * answer. Whatever the terminal's state (inactive, or refused before);
   * nothing is charged and nothing is stored. Test mode has the sandbox: a
   * merchant without a live terminal is refused (no-terminal-configured).
   */
  'terminal.probe': {
    operator: true,
    readOnly: true,
    service: 'acquirer-adapter',
    lane: 'slow',
    request: Type.Object({ merchant_id: MerchantId, order_number: Type.Optional(AcquirerOrderKey), order_id: Type.Optional(AcquirerOrderKey) }),
    reply: Type.Object({
      merchant_id: MerchantId,
      /** The terminal asked: its user name, whether payments may use it, and whether the acquirer refused its credentials on a payment before. */
      terminal: Type.Object({ user_name: Type.String(), active: Type.Boolean(), rejected: Type.Boolean() }),
      /** The live acquirer's base URL (ACQUIRER_LIVE_URL). */
      acquirer_url: Type.String(),
      ...ProbedAnswer.properties,
    }),
  },
} as const satisfies Record<string, CommandContract>;

/** The payment.* events the acquirer-adapter publishes. */
export const acquirerEvents = {
  'payment.approved': PaymentApproved,
  'payment.declined': PaymentDeclined,
  'payment.authorized': PaymentAuthorized,
  'payment.captured': PaymentCaptured,
  'payment.capture_failed': PaymentCaptureFailed,
} as const satisfies Record<string, TSchema>;
