/** The refund service's settings, read and checked before it starts. */
import { commandPrefetch, common, int, loadConfig, operatorSettings, outboxGatherMs, url } from '@gateway/config';

export const refundSettings = {
  ...common,
  ...operatorSettings,
  databaseUrl: url('DATABASE_URL', undefined, ['postgres:', 'postgresql:'], { secret: true }),
  port: int('PORT', 8084, { min: 0, max: 65535 }),
  dbPoolMax: int('DB_POOL_MAX', 10, { min: 1, max: 200 }),
  ...commandPrefetch,
  /**
   * How long the acquirer step of a refund may take at the adapter before it is
   * held for an operator. Longer than the adapter's ACQUIRER_TIMEOUT_MS, shorter
   * than the gateway's ACQUIRER_COMMAND_TIMEOUT_MS.
   */
  adapterTimeoutMs: int('ADAPTER_TIMEOUT_MS', 20_000, { min: 1 }),
  outboxGatherMs,
};

export type RefundConfig = ReturnType<typeof loadRefundConfig>;

/** The refund service's settings from `env`, checked; throws ConfigError on any wrong one. */
export function loadRefundConfig(env: Record<string, string | undefined> = process.env) {
  return loadConfig(refundSettings, env);
}
