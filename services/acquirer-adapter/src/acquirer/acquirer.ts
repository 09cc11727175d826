/**
 * What the adapter needs of whoever takes a payment: a card acquirer
 * (ClicToPay) or a wallet (Flouci, D26). Each is a connector, a client plus
 * its transformers, behind one neutral interface (Connector: start, status,
 * capture, void, refund), so reconciliation, holds (D22) and refunds never
 * speak a connector's own names, and adding one touches one folder. What only
 * a card does (sending it, 3-D Secure, saved cards) is CardConnector's.
 * Amounts cross it as TND decimal strings; the client converts.
 */

import type { Card } from '@gateway/card-sealing';
import type { BuyerContact, Language, ProbedAnswer } from '@gateway/contracts';

/** Where and as whom to call a connector: a card terminal's user name and password, or a wallet application's public and private keys. */
export interface Terminal {
  readonly baseUrl: string;
  readonly userName: string;
  readonly password: string;
}

/** How a payment is taken: by card, or with the Flouci wallet (D26); every attempt carries it. */
export type PaymentMethodType = 'card' | 'flouci';

export interface OrderRequest {
  readonly orderNumber: string;
  readonly amount: string;
  /** This attempt's address on the hosted page, where the acquirer sends the browser back (a GET) after a flow it finishes itself. */
  readonly returnUrl: string;
  readonly description: string;
  /** The language of the acquirer's pages the buyer may see (3-D Secure). */
  readonly language: Language;
  /** D22: a two-phase order (registerPreAuth.do), whose approved payment is held until deposited or reversed. */
  readonly twoPhase: boolean;
  /** D24: the customer, as the acquirer's clientId: whose card is saved with the order, or whose saved card pays it. */
  readonly clientId?: string;
  /** D24: the card is saved for `clientId` once the order is paid. */
  readonly saveCard?: boolean;
  /** A wallet's hand-off (D26): where the buyer comes back to, and where the wallet posts its notice; a card's order has none. */
  readonly wallet?: WalletHandOff;
}

/** What a wallet payment is started with beside the order (D26, WALLET.md generate_payment). */
interface WalletHandOff {
  /** The attempt's id, the wallet's developer_tracking_id. */
  readonly trackingId: string;
  /** Where the wallet sends the buyer back after they paid, and after they did not. */
  readonly successUrl: string;
  readonly failUrl: string;
  /** Where the wallet posts its notice of the outcome: a hint, never the proof. */
  readonly webhookUrl: string;
  /** How long the buyer has on the wallet's page before the payment expires. */
  readonly timeoutSeconds: number;
}

/** D24: the card an approved order saved at the acquirer, as its status tells. */
export interface OrderBinding {
  readonly bindingId: string;
  /** The card's expiry as the acquirer writes it (YYYYMM), when it says. */
  readonly expiry?: string;
}

/** A card sent for a registered order, with what goes along with it (D30). */
export interface CardPayment {
  readonly card: Card;
  readonly language: Language;
  /** Who pays, as the acquirer asks to know them for 3-D Secure 2: what it takes of it is sent. */
  readonly buyer?: BuyerContact;
  /** This attempt's address on the hosted page: where the ACS returns the buyer after a 3-D Secure 2 challenge. */
  readonly finishUrl: string;
  /** 3-D Secure 2's repeat of the card: the transaction its first step opened. */
  readonly threeDSServerTransId?: string;
}

/** D24: the saved card a registered order is paid with. */
interface BindingPayment {
  readonly bindingId: string;
  /** The buyer's address, or the merchant's server's for a charge without the buyer: the acquirer requires one. */
  readonly ip: string;
  /** F: the buyer pays with it on the page (with `cvc`); U: the merchant charges it without the buyer; R: a scheduled charge. */
  readonly tii: 'F' | 'U' | 'R';
  readonly cvc?: string;
}

/** D24: a saved card sent for a registered order, with what goes along with it as with a typed card (3-D Secure 2 included). */
export interface SavedCardPayment extends Omit<CardPayment, 'card'> {
  readonly binding: BindingPayment;
}

/** How starting a payment ended: the connector's reference for it (ClicToPay's orderId, Flouci's payment_id), and for a wallet the page the buyer is sent to. */
export type RegisterResult =
  | { kind: 'registered'; orderId: string; redirectUrl?: string }
  /** The acquirer refused the terminal's credentials. */
  | { kind: 'credentials-rejected'; message: string }
  | { kind: 'refused'; message: string };

/** What the acquirer's answer to a card says comes next (ACQUIRER.md, paymentorder.do's answers). */
export type PayResult =
  /** No next step: paid, frictionless, declined or an answer that says nothing more; the order's status tells which. */
  | { kind: 'submitted' }
  /** 3-D Secure 2 opened a transaction whose 3DS Method the buyer's browser runs (posting `data` to `url`) before the card goes again. */
  | { kind: 'method'; serverTransId: string; url: string; data: string }
  /** 3-D Secure 2 opened a transaction without a 3DS Method: the card goes again at once. */
  | { kind: 'repeat'; serverTransId: string }
  /** A 3-D Secure 2 challenge: the browser posts `creq` to acsUrl; the transaction when the answer names it. */
  | { kind: 'challenge2'; acsUrl: string; creq: string; serverTransId?: string }
  /** A 3-D Secure 1 challenge: the browser posts PaReq (with MD and our TermUrl) to acsUrl. */
  | { kind: 'challenge'; acsUrl: string; paReq: string }
  | { kind: 'refused'; message: string };

/** finish3dsVer2Payment.do's answer: `absent` when the deployment has no such call (HTTP 404): the order's status tells then. */
export type FinishResult = { kind: 'finished' } | { kind: 'refused'; message: string } | { kind: 'absent' };

/**
 * How the adapter names a payment when it asks about it: the connector's
 * reference once it gave one, and the number the order was started under.
 * Reconciliation asks with `byNumber` (a start that timed out may have made a
 * payment whose reference never came back): a connector that can look a
 * payment up by its number does; one that cannot uses the reference, and a
 * payment it never gave a reference for is not-found.
 */
export interface PaymentRef {
  readonly reference: string | null;
  readonly orderNumber: string;
  readonly byNumber?: boolean;
}

/** What a refund is asked with (see Connector.refund). */
export interface RefundRequest {
  readonly reference: string;
  /** TND to give back. */
  readonly amount: string;
  /** The most the payment can have had refunded before (TND). */
  readonly refundedAtMost: string;
  /** What the payment took (TND): a connector that refunds only whole payments compares with it. */
  readonly paymentAmount: string;
}

export type OrderState =
  /** Deposited (orderStatus 2): `amount` is what was taken, when the answer says it (paymentAmountInfo); never guessed. */
  | { kind: 'paid'; amount?: string; maskedPan: string; binding?: OrderBinding }
  /** Pre-authorised, held (orderStatus 1, a two-phase order): `amount` is what is held. */
  | { kind: 'held'; amount?: string; maskedPan: string; binding?: OrderBinding }
  /** Declined, or reversed (`reversed`: a hold released, or a payment voided). */
  | { kind: 'declined'; failureCode: string; failureMessage: string; reversed?: true }
  /** Registered or in 3-D Secure: no outcome yet. */
  | { kind: 'open' }
  | { kind: 'not-found' };

/**
 * How a reverse, a refund or a deposit ended at the acquirer (ACQUIRER.md,
 * refund outcomes and two-phase orders): `done`; `refused` is definitive,
 * nothing was done; `unconfirmed` (a system error, or an answer that says
 * nothing usable that the order's status does not settle either) leaves the
 * outcome unknown. `errorCode` is the acquirer's, for the log (-1: none could
 * be read, or no answer came).
 */
export type OperationResult =
  | { kind: 'done' }
  | { kind: 'refused'; errorCode: number; message: string }
  | { kind: 'unconfirmed'; errorCode: number; message: string };

/**
 * The acquirer did not answer in time, or its answer could not be read: the
 * outcome is unknown, never a failure (ACQUIRER.md).
 */
export class AcquirerUnreachable extends Error {
  constructor(
    readonly call: string,
    readonly reason: string,
    /** True when the request may have reached the acquirer (a timeout, not a refused connection). */
    readonly maybeDelivered: boolean,
    /** The HTTP status of an answer that was not a 200, when one came. */
    readonly httpStatus?: number,
  ) {
    super(`acquirer ${call}: ${reason}`);
    this.name = 'AcquirerUnreachable';
  }
}

/**
 * What every connector does, in neutral words: start a payment, tell where it
 * stands (the only proof of an outcome), capture or void a held one, refund.
 */
export interface Connector {
  /** Which payments it takes. */
  readonly method: PaymentMethodType;
  /** Starts a payment (ClicToPay: register.do or registerPreAuth.do; Flouci: generate_payment, pre_auth for a two-phase one). */
  start(account: Terminal, order: OrderRequest): Promise<RegisterResult>;
  /** Where the payment stands, confirmed with the connector (ClicToPay: getOrderStatusExtended.do; Flouci: verify_payment). */
  status(account: Terminal, payment: PaymentRef): Promise<OrderState>;
  /** Takes `amount` (TND, at most what is held) of a held payment, once; the rest of the hold is released. */
  capture(account: Terminal, reference: string, amount: string): Promise<OperationResult>;
  /** Voids the whole of a paid payment, once, before it is settled; or releases a hold. */
  void(account: Terminal, reference: string): Promise<OperationResult>;
  /**
   * Gives back `amount` of a paid payment. An answer that says nothing is done
   * only when the payment shows more refunded than `refundedAtMost` by
   * `amount`. A connector that cannot give back that amount refuses it
   * (`refused`, nothing done).
   */
  refund(account: Terminal, refund: RefundRequest): Promise<OperationResult>;
  /** Closes its kept-alive connections. */
  close(): Promise<void>;
}

/** A card acquirer's connector: the card and its 3-D Secure steps, saved cards, and an operator's probe, beside the neutral calls. */
export interface CardConnector extends Connector {
  /** Sends the card for a registered order (again, with its transaction, for 3-D Secure 2's repeat). */
  pay(terminal: Terminal, orderId: string, payment: CardPayment): Promise<PayResult>;
  /** D24: pays a registered order with a saved card (paymentOrderBinding.do): with the buyer by its security code (tii F), or without them (U, R). */
  payWithBinding(terminal: Terminal, orderId: string, payment: SavedCardPayment): Promise<PayResult>;
  /** 3-D Secure 1: hands the acquirer the issuer's paRes. */
  finish3ds(terminal: Terminal, orderId: string, paRes: string): Promise<PayResult>;
  /** 3-D Secure 2: the buyer is back from the ACS; the acquirer finishes the order of this transaction. */
  finish3ds2(terminal: Terminal, orderId: string, serverTransId: string): Promise<FinishResult>;
  /** D24: removes a saved card at the acquirer (unBindCard.do); `done` too when the acquirer no longer knows it. */
  unbind(terminal: Terminal, bindingId: string): Promise<OperationResult>;
  /** How the terminal writes its answer about one order (an operator's probe before going live): only reads, and reads out no card data. */
  probeOrderStatus(terminal: Terminal, order: { orderId: string } | { orderNumber: string }): Promise<ProbedAnswer>;
}
