/**
 * A saved card (ACQUIRER.md "Saved cards (D24)": a binding): kept per terminal
 * and client (register.do's clientId) when an order registered with
 * FORCE_CREATE_BINDING is paid, and charged later by its bindingId, with the
 * buyer (paymentOrderBinding.do) or without them (recurrentPayment.do).
 */
import { isExpired, type CardDetails } from './card.js';

/** clientId's limit, on register.do and getBindings.do. */
export const MAX_CLIENT_ID_LENGTH = 255;

export interface Binding {
  /** A UUID: the only name a merchant has for the card. */
  readonly bindingId: string;
  /** userName of the terminal whose order saved it; no other terminal sees it. */
  readonly terminal: string;
  readonly clientId: string;
  /** The card as the saving payment read it, its behaviour included. */
  readonly card: CardDetails;
  /** False once unBindCard.do has deactivated it: it is never charged again. */
  active: boolean;
}

/** The card a charge of the binding uses at `now`: a card that has since expired behaves as expired. */
export function cardOf(binding: Binding, now: Date): CardDetails {
  return isExpired(binding.card.expiration, now) ? { ...binding.card, behaviour: 'expired_card' } : binding.card;
}

/** getBindings.do's description of a binding. */
export function describeBinding(binding: Binding): Readonly<Record<string, string>> {
  return { bindingId: binding.bindingId, maskedPan: binding.card.maskedPan, expiryDate: binding.card.expiration, clientId: binding.clientId };
}
