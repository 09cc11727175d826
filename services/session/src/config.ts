/** The session service's settings, read and checked before it starts. */
import { bool, commandPrefetch, common, ConfigError, int, loadConfig, operatorSettings, outboxGatherMs, str, sweepInterval, url } from '@gateway/config';

export const sessionSettings = {
  ...common,
  ...operatorSettings,
  databaseUrl: url('DATABASE_URL', undefined, ['postgres:', 'postgresql:'], { secret: true }),
  port: int('PORT', 8082, { min: 0, max: 65535 }),
  publicBaseUrl: url('PUBLIC_BASE_URL', 'http://localhost:8080'),
  sessionTtlSeconds: int('SESSION_TTL_SECONDS', 86_400, { min: 1 }),
  checkoutLinkTtlSeconds: int('CHECKOUT_LINK_TTL_SECONDS', 1_800, { min: 1 }),
  /** Private Ed25519 JWK that signs checkout links; the checkout service holds the public half. */
  checkoutLinkSigningKey: str('LINK_SIGNING_KEY', undefined, { secret: true }),
  dbPoolMax: int('DB_POOL_MAX', 10, { min: 1, max: 200 }),
  ...commandPrefetch,
  /** How long a payment step at the acquirer adapter may take before the attempt is left pending. */
  adapterTimeoutMs: int('ADAPTER_TIMEOUT_MS', 60_000, { min: 1 }),
  outboxGatherMs,
  /** How often expired sessions and lapsed checkout links are looked for (D13). */
  sweepIntervalSeconds: sweepInterval('SWEEP_INTERVAL_SECONDS', 30),
  /** How long after its start a PROCESSING attempt is asked about at the adapter (longer than ADAPTER_TIMEOUT_MS). */
  attemptCheckAfterSeconds: int('ATTEMPT_CHECK_AFTER_SECONDS', 120, { min: 1 }),
  /** The longest wait between two checks of one stuck attempt. */
  attemptCheckMaxDelaySeconds: int('ATTEMPT_CHECK_MAX_DELAY_SECONDS', 3600, { min: 1 }),
  /**
   * How long a capture waits for the adapter (D22) before it is answered 502
   * processor-unavailable and left to reconciliation: longer than the
   * adapter's acquirer call, shorter than the gateway's wait for a slow
   * command (ACQUIRER_COMMAND_TIMEOUT_MS, 30 s), so the merchant gets that
   * answer rather than the gateway's own timeout.
   */
  captureTimeoutMs: int('CAPTURE_TIMEOUT_MS', 25_000, { min: 1 }),
  /** D22: a manual session's payment not captured within this is voided by the sweep (EXPIRED). */
  authorizationTtlSeconds: int('AUTHORIZATION_TTL_SECONDS', 604_800, { min: 1 }),
  /** D11: accept webhook_url on loopback or private addresses (development and tests only). */
  allowPrivateWebhooks: bool('WEBHOOK_ALLOW_PRIVATE', false),
};

export type SessionConfig = ReturnType<typeof loadSessionConfig>;

/** The session service's settings from `env`, checked; throws ConfigError on any wrong one. */
export function loadSessionConfig(env: Record<string, string | undefined> = process.env) {
  const config = loadConfig(sessionSettings, env);
  if (config.attemptCheckAfterSeconds * 1000 <= config.adapterTimeoutMs) {
    throw new ConfigError(['ATTEMPT_CHECK_AFTER_SECONDS must be longer than ADAPTER_TIMEOUT_MS: a payment still under way would be asked about']);
  }
  return config;
}
