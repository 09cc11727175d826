/** The dashboard service's settings (D14, D15), read and checked before it starts. */
import { bool, common, ConfigError, exportSettings, int, intList, loadConfig, operatorSettings, privateJwk, proxySettings, rateLimitSettings, redisSettings, secretsKeys, str, url } from '@gateway/config';

export const dashboardSettings = {
  ...common,
  ...secretsKeys,
  ...operatorSettings,
  ...redisSettings,
  databaseUrl: url('DATABASE_URL', undefined, ['postgres:', 'postgresql:'], { secret: true }),
  port: int('PORT', 8087, { min: 0, max: 65535 }),
  dbPoolMax: int('DB_POOL_MAX', 10, { min: 1, max: 200 }),
  /** Where merchants reach the dashboard: its origin decides whether cookies are Secure (not on http://localhost). */
  publicBaseUrl: url('PUBLIC_BASE_URL', 'http://localhost:8080'),
  /** Proxies of ours in front (TRUST_PROXY_HOPS, default none): whose X-Forwarded-For entry is the client's. */
  ...proxySettings,
  signingKey: privateJwk('DASHBOARD_SIGNING_KEY'),
  /** The acquirer adapter's public JWK (checkout's too): a merchant's Flouci private key is sealed for it before it crosses the broker (D26). */
  adapterSealingKey: str('CARD_ENCRYPTION_KEY'),
  /** Operators must add a second factor before the console opens (D15); off only in test deployments. */
  opsTotpRequired: bool('OPS_TOTP_REQUIRED', true),
  /** A signed-in session ends after this long without a request (D14: 12 h). */
  sessionIdleSeconds: int('DASHBOARD_SESSION_IDLE_SECONDS', 12 * 3600, { min: 1 }),
  /** How long a setup link (a new user's) works. */
  setupLinkTtlSeconds: int('SETUP_LINK_TTL_SECONDS', 24 * 3600, { min: 1 }),
  /** How long a password reset link works (D20: one hour). */
  passwordResetTtlSeconds: int('PASSWORD_RESET_TTL_SECONDS', 3600, { min: 1, max: 86_400 }),
  /**
   * "Forgot password?" requests per address within PASSWORD_RESET_WINDOW_SECONDS
   * before 429; past as many for one email (from addresses within their bound),
   * the same answer and no mail.
   */
  passwordResetLimit: int('PASSWORD_RESET_LIMIT', 5, { min: 1 }),
  passwordResetWindowSeconds: int('PASSWORD_RESET_WINDOW_SECONDS', 3600, { min: 1 }),
  /** No new reset link is mailed while the person's newest live one is younger than this. */
  passwordResetIntervalSeconds: int('PASSWORD_RESET_INTERVAL_SECONDS', 60, { min: 0, max: 3600 }),
  /** Failed sign-ins per account and address within the window before 429 (D14: 5 in 15 minutes). */
  loginFailureLimit: int('LOGIN_FAILURE_LIMIT', 5, { min: 1 }),
  loginFailureWindowSeconds: int('LOGIN_FAILURE_WINDOW_SECONDS', 900, { min: 1 }),
  /**
   * Wrong passwords one account may take within a short window from every
   * address together, but those it was fully signed in to from lately (D29);
   * the next ones wait for the window's end, right or wrong. Short, so that a
   * stranger can keep a newcomer out for a minute at most.
   */
  loginAccountFailureLimit: int('LOGIN_ACCOUNT_FAILURE_LIMIT', 10, { min: 1 }),
  loginAccountFailureWindowSeconds: int('LOGIN_ACCOUNT_FAILURE_WINDOW_SECONDS', 60, { min: 1, max: 3600 }),
  /**
   * Wrong second-factor codes one account may take within that window, from
   * every address together; the next ones wait SECOND_FACTOR_LOCKOUT_SECONDS,
   * right or wrong: addresses are cheap to an attacker who has the password.
   */
  secondFactorAccountLimit: int('SECOND_FACTOR_ACCOUNT_LIMIT', 10, { min: 1 }),
  secondFactorLockoutSeconds: int('SECOND_FACTOR_LOCKOUT_SECONDS', 900, { min: 1 }),
  /** The choices of "Rotate" for the old live key (D14: now, 1 h, 24 h); the api-gateway holds the same list. */
  keyRotationGracesSeconds: intList('KEY_ROTATION_GRACES_SECONDS', [0, 3600, 86400]),
  /** scrypt cost (N) for new password hashes; lower only in tests. */
  passwordHashCost: int('PASSWORD_HASH_COST', 1 << 15, { min: 1 << 10, max: 1 << 20 }),
  /**
   * RATE_LIMIT_KEY_PREFIX, the gateway's too: the sign-in throttles' keys, and
   * the export slots' that the API's exports count in; RATE_LIMIT_FALLBACK_REPLICAS:
   * with Redis out, each replica runs its share of the export slots.
   */
  ...rateLimitSettings,
  /** The Reports downloads are exports as the API's are, held to the same settings (D29). */
  ...exportSettings,
};

export type DashboardConfig = ReturnType<typeof loadDashboardConfig>;

/** The dashboard's settings from `env`, checked; the dashboard's own key must be marked as the dashboard's when operators' keys list it. */
export function loadDashboardConfig(env: Record<string, string | undefined> = process.env) {
  const config = loadConfig(dashboardSettings, env);
  // Unmarked, the dashboard's key would sign with an operator's full authority for anyone who took it (D17).
  const listed = config.operatorPublicKeys.find((key) => key.kid === config.signingKey['kid']);
  if (listed && listed.door !== 'dashboard') {
    throw new ConfigError(['OPERATOR_PUBLIC_KEYS lists the public half of DASHBOARD_SIGNING_KEY without "door": "dashboard": mark it, so that services hold it to what the dashboard does']);
  }
  return config;
}
