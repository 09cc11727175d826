/**
 * Fresh keys for tests that start services on their own: card sealing, link
 * signing, and operators (D17), as the system's launchers make them.
 */
import { newPair, type KeyPair } from '@gateway/system';

/** Card-sealing keys: the acquirer adapter's private JWK and the checkout service's public one. */
export function cardKeys(): KeyPair {
  return newPair('card');
}

/** Link-signing keys: the session service's private JWK and the checkout service's public one. */
export function linkKeys(): KeyPair {
  return newPair('link');
}

/** An operator's key pair (D17): the private JWK gateway-admin signs with, the public one every service checks. */
export function operatorKeys(kid: string): KeyPair {
  return newPair('operator', kid);
}
