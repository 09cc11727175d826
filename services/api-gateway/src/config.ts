/** The API gateway's settings, read and checked before it starts. */
import { bool, common, ConfigError, exportSettings, int, intList, loadConfig, operatorSettings, proxySettings, rateLimitSettings, redisSettings, secretsKeys, str, sweepInterval, url, type Setting } from '@gateway/config';
import { EXPORT_PAGE_SIZE } from '@gateway/contracts';

export const gatewaySettings = {
  ...common,
  ...secretsKeys,
  ...operatorSettings,
  ...redisSettings,
  databaseUrl: url('DATABASE_URL', undefined, ['postgres:', 'postgresql:'], { secret: true }),
  port: int('PORT', 8080, { min: 0, max: 65535 }),
  publicBaseUrl: url('PUBLIC_BASE_URL', 'http://localhost:8080'),
  /** Host of problem type URIs; PUBLIC_BASE_URL's host (with its port) when empty. */
  publicErrorsHost: str('PUBLIC_ERRORS_HOST', ''),
  /** How long a verified key is trusted without asking the database again. */
  authCacheTtlMs: int('AUTH_CACHE_TTL_MS', 5_000, { min: 0, max: 300_000 }),
  /** Failed authentications allowed per client address per minute (D12). */
  authFailuresPerMinute: int('AUTH_FAILURES_PER_MINUTE', 20, { min: 1 }),
  /** Default budgets, requests per second (INTERFACE 8). */
  liveAccountRps: int('RATE_LIVE_ACCOUNT', 25, { min: 1 }),
  liveCreateRps: int('RATE_LIVE_CREATE', 10, { min: 1 }),
  liveRefundRps: int('RATE_LIVE_REFUND', 5, { min: 1 }),
  testAccountRps: int('RATE_TEST_ACCOUNT', 10, { min: 1 }),
  testCreateRps: int('RATE_TEST_CREATE', 5, { min: 1 }),
  testRefundRps: int('RATE_TEST_REFUND', 2, { min: 1 }),
  /**
   * RATE_LIMIT_KEY_PREFIX and RATE_LIMIT_FALLBACK_REPLICAS: with Redis out,
   * each replica keeps its own buckets (and export slots) at 1/N of every
   * budget (tests/deploy holds the manifests to N >= the HPA's maxReplicas).
   */
  ...rateLimitSettings,
  /** Proxies of ours in front (TRUST_PROXY_HOPS), 0 by default: the gateway is the edge, and the peer is the client. */
  ...proxySettings,
  /**
   * The older switch, kept for deployments that still set it: false trusts
   * no proxy, whatever TRUST_PROXY_HOPS says; true trusts TRUST_PROXY_HOPS
   * of them, one when it is not given. Unset, TRUST_PROXY_HOPS alone decides.
   */
  trustProxy: { ...bool('TRUST_PROXY'), fallback: () => undefined } as Setting<boolean | undefined>,
  dbPoolMax: int('DB_POOL_MAX', 5, { min: 1, max: 200 }),
  /** The checkout service, for /checkout/ requests reaching the gateway; empty when an ingress routes them. */
  checkoutUpstreamUrl: str('CHECKOUT_UPSTREAM_URL', 'http://127.0.0.1:8081'),
  /** The dashboard service, for /dashboard/ and /ops/ requests reaching the gateway; empty: no pass-through (404). */
  dashboardUpstreamUrl: url('DASHBOARD_UPSTREAM_URL', ''),
  /** The graces a rotated API key may keep working for, in seconds (D14: now, 1 h, 24 h); 0 revokes at once. */
  keyRotationGracesSeconds: intList('KEY_ROTATION_GRACES_SECONDS', [0, 3600, 86_400]),
  /** D11's address rule for the webhook URL a new merchant is created with (the dispatcher applies it again, after DNS). */
  allowPrivateWebhooks: bool('WEBHOOK_ALLOW_PRIVATE', false),
  /** How long an Idempotency-Key and its first answer are kept (D10: 24 hours). */
  idempotencyTtlSeconds: int('IDEMPOTENCY_TTL_SECONDS', 86_400, { min: 1, max: 30 * 86_400 }),
  /**
   * How long a call that waits on the acquirer (a refund) may take. Longer than
   * the refund service's own wait for the acquirer (its ADAPTER_TIMEOUT_MS), so
   * the merchant always gets the refund's answer, never a timeout while it
   * goes on.
   */
  acquirerCommandTimeoutMs: int('ACQUIRER_COMMAND_TIMEOUT_MS', 30_000, { min: 1, max: 120_000 }),
  /** Seconds between keep-alive comments on an idle event stream (`gateway listen`), under common proxies' 60 s idle timeout. */
  eventStreamHeartbeatSeconds: int('EVENT_STREAM_HEARTBEAT_SECONDS', 25, { min: 1, max: 300 }),
  /**
   * How often an open event stream checks that its key still works and its
   * merchant is not suspended; it ends within this once either changes (plus
   * AUTH_CACHE_TTL_MS should the change's broadcast not reach this replica).
   */
  eventStreamAuthCheckSeconds: int('EVENT_STREAM_AUTH_CHECK_SECONDS', 5, { min: 1, max: 300 }),
  /** Event streams one account may hold open on one replica; past it, 429. */
  eventStreamsPerMerchant: int('EVENT_STREAMS_PER_MERCHANT', 5, { min: 1, max: 100 }),
  /** Rows a CSV export (D21) reads per page from the owning service; lower only to test paging. */
  exportPageSize: int('EXPORT_PAGE_SIZE', EXPORT_PAGE_SIZE, { min: 1, max: EXPORT_PAGE_SIZE }),
  /** EXPORT_IDLE_TIMEOUT_MS, EXPORTS_PER_MERCHANT, EXPORT_MAX_SECONDS, EXPORT_SLOT_LEASE_SECONDS: the dashboard's downloads share them (D29). */
  ...exportSettings,
  /** How often expired Idempotency-Keys are purged (D13). */
  sweepIntervalSeconds: sweepInterval('SWEEP_INTERVAL_SECONDS', 30),
};

export type GatewayConfig = ReturnType<typeof loadGatewayConfig>;

/** The gateway's settings from `env`, checked; throws ConfigError on any wrong one. */
export function loadGatewayConfig(env: Record<string, string | undefined> = process.env) {
  const { trustProxy, ...config } = loadConfig(gatewaySettings, env);
  return Object.freeze({ ...config, trustProxyHops: trustedHops(trustProxy, config.trustProxyHops, (env['TRUST_PROXY_HOPS'] ?? '') !== '') });
}

/** The proxies trusted, from TRUST_PROXY_HOPS and the older TRUST_PROXY when a deployment still sets it. */
function trustedHops(trustProxy: boolean | undefined, hops: number, hopsGiven: boolean): number {
  if (trustProxy === undefined) return hops;
  if (!trustProxy) return 0;
  if (!hopsGiven) return 1;
  if (hops === 0) throw new ConfigError(['TRUST_PROXY=true with TRUST_PROXY_HOPS=0: give TRUST_PROXY_HOPS alone (the number of proxies of ours in front)']);
  return hops;
}

/** The host of problem type URIs (D1). */
export function errorsHost(config: GatewayConfig): string {
  return config.publicErrorsHost || new URL(config.publicBaseUrl).host;
}
