/** The checkout service's settings, read and checked before it starts. */
import { common, int, loadConfig, str, url } from '@gateway/config';

export const checkoutSettings = {
  ...common,
  port: int('PORT', 8081, { min: 0, max: 65535 }),
  /** What buyers' URLs start with; the hosted pages live under /checkout/. */
  publicBaseUrl: url('PUBLIC_BASE_URL', 'http://localhost:8080'),
  /** Public Ed25519 JWK of the session service's link-signing key. */
  linkVerifyKey: str('LINK_VERIFY_KEY'),
  /** Public ECDH P-256 JWK of the acquirer adapter: card data is sealed for it alone. */
  cardEncryptionKey: str('CARD_ENCRYPTION_KEY'),
  /** How long a payment step may take before the page shows it as processing; above the session's ADAPTER_TIMEOUT_MS. */
  paymentTimeoutMs: int('PAYMENT_TIMEOUT_MS', 65_000, { min: 1 }),
  /**
   * How long after its link lapsed a payment started with it may still come
   * back from 3-D Secure and show its result: as long as the adapter waits
   * for a challenge (CHALLENGE_TIMEOUT_SECONDS). Starting a payment, paying
   * and canceling still need a live link.
   */
  paymentReturnGraceSeconds: int('PAYMENT_RETURN_GRACE_SECONDS', 1_800, { min: 0 }),
};

export type CheckoutConfig = ReturnType<typeof loadCheckoutConfig>;

export function loadCheckoutConfig(env: Record<string, string | undefined> = process.env) {
  return loadConfig(checkoutSettings, env);
}
