/** The webhook dispatcher's settings, read and checked before it starts. */
import { bool, common, ConfigError, int, intList, loadConfig, operatorSettings, secretsKeys, sweepInterval, url } from '@gateway/config';

export const dispatcherSettings = {
  ...common,
  ...secretsKeys,
  ...operatorSettings,
  databaseUrl: url('DATABASE_URL', undefined, ['postgres:', 'postgresql:'], { secret: true }),
  port: int('PORT', 8085, { min: 0, max: 65535 }),
  dbPoolMax: int('DB_POOL_MAX', 10, { min: 1, max: 200 }),
  /** Delays before the second, third and fourth attempts (D11). */
  retryDelaysSeconds: intList('WEBHOOK_RETRY_DELAYS_SECONDS', [60, 7200, 86400]),
  /** How long one delivery attempt may take, connection and response included. */
  timeoutMs: int('WEBHOOK_TIMEOUT_MS', 10_000, { min: 1, max: 120_000 }),
  /** D11: lifts the address rule (loopback, private, link-local...), for development and tests only. */
  allowPrivate: bool('WEBHOOK_ALLOW_PRIVATE', false),
  /** How often due retries and abandoned attempts are looked for in the database. */
  sweepIntervalSeconds: sweepInterval('SWEEP_INTERVAL_SECONDS', 30),
  /**
   * How long a replica holds an attempt it is sending; past it, another may send
   * it again (the holder died). Longer than the timeout, so a slow attempt is not doubled.
   */
  leaseSeconds: int('WEBHOOK_LEASE_SECONDS', 120, { min: 1, max: 86_400 }),
  /** How long the previous secret keeps signing after a rotation. */
  secretGraceSeconds: int('WEBHOOK_SECRET_GRACE_SECONDS', 86_400, { min: 0, max: 30 * 86_400 }),
  /** Attempts in flight at once, over every endpoint. */
  concurrency: int('WEBHOOK_CONCURRENCY', 512, { min: 1, max: 10_000 }),
  /** Attempts in flight at once to one endpoint (scheme, host and port): a slow one holds no more. */
  endpointConcurrency: int('WEBHOOK_ENDPOINT_CONCURRENCY', 16, { min: 1, max: 1_000 }),
  /** Attempts held in memory for one endpoint; beyond, they wait in the database for a sweep. */
  endpointBacklog: int('WEBHOOK_ENDPOINT_BACKLOG', 2_000, { min: 1, max: 1_000_000 }),
  /** A managed endpoint whose every attempt has failed this long is disabled, and the merchant's other endpoints are told (3 days). */
  endpointDisableAfterSeconds: int('WEBHOOK_ENDPOINT_DISABLE_AFTER_SECONDS', 3 * 86_400, { min: 1, max: 365 * 86_400 }),
  /** Endpoints a merchant may manage per mode, the default one aside. */
  maxEndpoints: int('WEBHOOK_MAX_ENDPOINTS', 16, { min: 1, max: 1_000 }),
  /** Delivery records and stored events older than this are deleted. */
  retentionDays: int('WEBHOOK_RETENTION_DAYS', 30, { min: 1, max: 3_650 }),
  /** Rows the retention sweep deletes per statement: small, so no lock is held long. */
  retentionBatch: int('WEBHOOK_RETENTION_BATCH', 1_000, { min: 1, max: 100_000 }),
  /** Events one replay call queues at most; the answer says where the next call starts. */
  replayBatch: int('WEBHOOK_REPLAY_BATCH', 100, { min: 1, max: 1_000 }),
  /** Events taken from the broker at once (they are stored in batches). */
  eventPrefetch: int('EVENT_PREFETCH', 1_024, { min: 1, max: 65_535 }),
};

export type DispatcherConfig = ReturnType<typeof loadDispatcherConfig>;

export function loadDispatcherConfig(env: Record<string, string | undefined> = process.env) {
  const config = loadConfig(dispatcherSettings, env);
  if (config.leaseSeconds * 1000 <= config.timeoutMs) {
    throw new ConfigError(['WEBHOOK_LEASE_SECONDS must be longer than WEBHOOK_TIMEOUT_MS: an attempt still running would be sent again']);
  }
  return config;
}
