/** The checkout service's settings, read and checked before it starts. */
import { commandPrefetch, common, int, loadConfig, proxySettings, str, url } from '@gateway/config';

export const checkoutSettings = {
  ...common,
  port: int('PORT', 8081, { min: 0, max: 65535 }),
  /** The checkout schema: payment links (D19). */
  databaseUrl: url('DATABASE_URL', undefined, ['postgres:', 'postgresql:'], { secret: true }),
  dbPoolMax: int('DB_POOL_MAX', 10, { min: 1, max: 200 }),
  ...commandPrefetch,
  /** Payments counted on their payment links at once (session.succeeded); each takes a database connection while it commits. */
  eventPrefetch: int('EVENT_PREFETCH', 8, { min: 1, max: 256 }),
  /** D19: sessions one buyer address may ask for on one payment link in a minute. */
  paymentLinkBuyerLimitPerMinute: int('PAYMENT_LINK_BUYER_LIMIT_PER_MINUTE', 20, { min: 1, max: 10_000 }),
  /** D29: QR code images (qr.svg, qr.png) one client address may fetch in a minute. */
  qrPerAddressPerMinute: int('QR_PER_ADDRESS_PER_MINUTE', 30, { min: 1, max: 100_000 }),
  /** D29: QR code images kept drawn in memory (least recently used dropped first). */
  qrCacheEntries: int('QR_CACHE_ENTRIES', 1_000, { min: 1, max: 100_000 }),
  /** D29: sessions one payment link may make in a minute, whatever the addresses; its page's own budget, never the merchant's API Create budget. */
  paymentLinkSessionsPerMinute: int('PAYMENT_LINK_SESSIONS_PER_MINUTE', 60, { min: 1, max: 100_000 }),
  /** How often closed payment links have their open sessions canceled (D29): the longest such a session stays open after its link's expiry or last payment. */
  paymentLinkSweepSeconds: int('PAYMENT_LINK_SWEEP_SECONDS', 30, { min: 1, max: 60 }),
  /**
   * D19: a limited payment link's slot whose attempt never answered here is looked at
   * with the session service once PAYMENT_TIMEOUT_MS and this much more have
   * passed (the step's deadline runs from the call, on the session service's clock).
   */
  paymentLinkSlotCheckMarginMs: int('PAYMENT_LINK_SLOT_CHECK_MARGIN_MS', 10_000, { min: 0 }),
  /** Proxies of ours in front (TRUST_PROXY_HOPS, default none): whose X-Forwarded-For entry is the client's. */
  ...proxySettings,
  /** What buyers' URLs start with; the hosted pages live under /checkout/. */
  publicBaseUrl: url('PUBLIC_BASE_URL', 'http://localhost:8080'),
  /** Public Ed25519 JWK of the session service's checkout-link signing key. */
  checkoutLinkVerifyKey: str('LINK_VERIFY_KEY'),
  /** Public ECDH P-256 JWK of the acquirer adapter: card data is sealed for it alone. */
  cardEncryptionKey: str('CARD_ENCRYPTION_KEY'),
  /** How long a payment step may take before the page shows it as processing; above the session's ADAPTER_TIMEOUT_MS. */
  paymentTimeoutMs: int('PAYMENT_TIMEOUT_MS', 65_000, { min: 1 }),
  /**
   * How long after its checkout link lapsed a payment started with it may still come
   * back from 3-D Secure and show its result: as long as the adapter waits
   * for a challenge (CHALLENGE_TIMEOUT_SECONDS). Starting a payment, paying
   * and canceling still need a live checkout link.
   */
  paymentReturnGraceSeconds: int('PAYMENT_RETURN_GRACE_SECONDS', 1_800, { min: 0 }),
  /**
   * Test mode (D30): where buyers' browsers reach the sandbox acquirer, the one
   * origin besides https: ones the page hands a browser to (its 3DS Method and
   * challenge pages). A live session's forms go to https: origins only.
   */
  sandboxPublicUrl: url('SANDBOX_PUBLIC_URL', 'http://localhost:8086'),
  /**
   * D26: requests one client address may make to the wallet notices' route in a
   * minute, counted by each replica in memory; past it, 429. Flouci posts one
   * notice per payment, so a fair sender stays far below.
   */
  walletNoticesPerAddressPerMinute: int('WALLET_NOTICES_PER_ADDRESS_PER_MINUTE', 60, { min: 1, max: 100_000 }),
  /**
   * D26: how long a wallet notice waits for the adapter's verification before it
   * is answered all the same (the notice is a hint; the sweep reconciles): below
   * the few seconds a webhook sender commonly waits.
   */
  walletNoticeVerifyTimeoutMs: int('WALLET_NOTICE_VERIFY_TIMEOUT_MS', 4_000, { min: 100, max: 60_000 }),
  /** How long the 3DS Method frame may take before the page goes on without it; the protocol allows 10 s at most (D30). */
  threeDSMethodWaitMs: int('THREE_DS_METHOD_WAIT_MS', 10_000, { min: 100, max: 10_000 }),
  /**
   * How long a replica shows a merchant's branding as it read it before reading
   * it again (pages and receipts ask on every payment); a change shows at once
   * on the replica that made it, on the others within this time. 0: read each time.
   */
  brandingCacheMs: int('BRANDING_CACHE_MS', 10_000, { min: 0, max: 300_000 }),
};

export type CheckoutConfig = ReturnType<typeof loadCheckoutConfig>;

export function loadCheckoutConfig(env: Record<string, string | undefined> = process.env) {
  return loadConfig(checkoutSettings, env);
}
