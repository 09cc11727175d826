/** The acquirer adapter's settings, read and checked before it starts. */
import { commandPrefetch, common, ConfigError, int, loadConfig, operatorSettings, outboxGatherMs, secretsKeys, str, sweepInterval, url } from '@gateway/config';

export const adapterSettings = {
  ...common,
  ...secretsKeys,
  ...operatorSettings,
  databaseUrl: url('DATABASE_URL', undefined, ['postgres:', 'postgresql:'], { secret: true }),
  port: int('PORT', 8083, { min: 0, max: 65535 }),
  dbPoolMax: int('DB_POOL_MAX', 10, { min: 1, max: 200 }),
  ...commandPrefetch,
  outboxGatherMs,
  /** Private JWK (ECDH P-256) that opens the card data the checkout page encrypts. */
  cardDecryptionKey: str('CARD_DECRYPTION_KEY', undefined, { secret: true }),
  /** Test mode's acquirer: the built-in sandbox. */
  sandboxUrl: url('ACQUIRER_TEST_URL', 'http://localhost:8086/payment/rest/'),
  sandboxUser: str('ACQUIRER_TEST_USER', 'gateway-test'),
  sandboxPassword: str('ACQUIRER_TEST_PASSWORD', 'gateway-test-password', { secret: true }),
  /** Live mode's acquirer (ClicToPay). */
  liveUrl: url('ACQUIRER_LIVE_URL', 'https://ipay.clictopay.com/payment/rest/'),
  /** D26: test mode's Flouci (the sandbox's API) and its application; live mode's Flouci API, called with each merchant's own application. */
  flouciTestUrl: url('FLOUCI_TEST_URL', 'http://localhost:8086/api/v2/'),
  flouciTestPublicKey: str('FLOUCI_TEST_PUBLIC_KEY', 'gateway-flouci-test-public'),
  flouciTestPrivateKey: str('FLOUCI_TEST_PRIVATE_KEY', 'gateway-flouci-test-private', { secret: true }),
  flouciLiveUrl: url('FLOUCI_LIVE_URL', 'https://developers.flouci.com/api/v2/'),
  /** How long a buyer has on Flouci's page (session_timeout_secs) before the payment expires (wallet_expired). */
  walletTimeoutSeconds: int('WALLET_TIMEOUT_SECONDS', 1_200, { min: 1, max: 86_400 }),
  /** How long one acquirer call may take; past it the outcome is unknown, not failed. */
  acquirerTimeoutMs: int('ACQUIRER_TIMEOUT_MS', 15_000, { min: 1 }),
  /** Pricing of merchants without their own (`fees set`): percent of the amount plus a fixed TND amount. */
  defaultFeePercent: str('DEFAULT_FEE_PERCENT', '1.5'),
  defaultFeeFixed: str('DEFAULT_FEE_FIXED', '0.200'),
  /** How often unresolved orders are looked for (reconciliation); also the first backoff step. */
  sweepIntervalSeconds: sweepInterval('SWEEP_INTERVAL_SECONDS', 30),
  /**
   * Age (since the order last changed) after which a STARTED or CHALLENGED
   * order is reconciled, and after which an order the acquirer does not know
   * may be declined. Longer than a payment's three acquirer calls can take, so
   * a payment still in flight on a live replica is never touched.
   */
  reconcileAfterSeconds: int('RECONCILE_AFTER_SECONDS', 60, { min: 1, max: 86_400 }),
  /** How long a buyer may stay in 3-D Secure (the 3DS Method step or a challenge) before the attempt is declined authentication_failed. */
  challengeTimeoutSeconds: int('CHALLENGE_TIMEOUT_SECONDS', 1_800, { min: 1, max: 7 * 86_400 }),
  /** The longest wait between two checks of an order reconciliation could not resolve. */
  reconcileMaxDelaySeconds: int('RECONCILE_MAX_DELAY_SECONDS', 3_600, { min: 1, max: 86_400 }),
};

export type AdapterConfig = ReturnType<typeof loadAdapterConfig>;

/** The adapter's settings from `env`, checked; throws ConfigError on the first wrong one. */
export function loadAdapterConfig(env: Record<string, string | undefined> = process.env) {
  const config = loadConfig(adapterSettings, env);
  // register, pay and status may each take the whole timeout.
  if (config.reconcileAfterSeconds * 1000 <= 3 * config.acquirerTimeoutMs) {
    throw new ConfigError([
      `RECONCILE_AFTER_SECONDS (${config.reconcileAfterSeconds}) must be longer than three acquirer calls (3 × ACQUIRER_TIMEOUT_MS = ${3 * config.acquirerTimeoutMs} ms): a payment still in flight would be reconciled`,
    ]);
  }
  return config;
}
