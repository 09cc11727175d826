/** The ledger service's settings, read and checked before it starts. */
import { commandPrefetch, common, int, loadConfig, url } from '@gateway/config';

export const ledgerSettings = {
  ...common,
  databaseUrl: url('DATABASE_URL', undefined, ['postgres:', 'postgresql:'], { secret: true }),
  port: int('PORT', 8088, { min: 0, max: 65535 }),
  dbPoolMax: int('DB_POOL_MAX', 10, { min: 1, max: 200 }),
  ...commandPrefetch,
  /** D21: a balance transaction counts as available this many Africa/Tunis days after the day it was made. */
  settlementDelayDays: int('SETTLEMENT_DELAY_DAYS', 2, { min: 0, max: 90 }),
  /** Payments and refunds recorded at once; each takes a database connection while it commits. */
  eventPrefetch: int('EVENT_PREFETCH', 8, { min: 1, max: 256 }),
};

export type LedgerConfig = ReturnType<typeof loadLedgerConfig>;

/** The ledger's settings from `env`, checked; throws ConfigError on any wrong one. */
export function loadLedgerConfig(env: Record<string, string | undefined> = process.env) {
  return loadConfig(ledgerSettings, env);
}
