/** The webhook dispatcher's settings, read and checked before it starts. */
import { common, int, loadConfig, url } from '@gateway/config';

export const dispatcherSettings = {
  ...common,
  databaseUrl: url('DATABASE_URL', undefined, ['postgres:', 'postgresql:'], { secret: true }),
  port: int('PORT', 8085, { min: 0, max: 65535 }),
  dbPoolMax: int('DB_POOL_MAX', 5, { min: 1, max: 200 }),
};

export type DispatcherConfig = ReturnType<typeof loadDispatcherConfig>;

export function loadDispatcherConfig(env: Record<string, string | undefined> = process.env) {
  return loadConfig(dispatcherSettings, env);
}
