/**
 * The one way a service makes its Redis client: to REDIS_URL, or (D23) to the
 * master the Sentinels elect, followed through a failover. ioredis asks the
 * Sentinels for the master on every (re)connect and, when the server it talks
 * to turns out to be a replica (it was demoted), reconnects through them.
 */
import { Redis, type RedisOptions } from 'ioredis';
import type { HostPort } from '@gateway/config';

export type { Redis, RedisOptions } from 'ioredis';

export interface RedisSettings {
  readonly redisUrl: string;
  readonly redisSentinels: readonly HostPort[];
  readonly redisSentinelName: string;
}

/** A client by `settings`, with `options` (timeouts, queueing) as the caller wants them. */
export function createRedis(settings: RedisSettings, options: RedisOptions): Redis {
  if (settings.redisSentinels.length === 0) return new Redis(settings.redisUrl, options);
  const url = new URL(settings.redisUrl);
  const database = Number(url.pathname.slice(1) || '0');
  return new Redis({
    ...options,
    sentinels: settings.redisSentinels.map(({ host, port }) => ({ host, port })),
    name: settings.redisSentinelName,
    ...(url.username && { username: decodeURIComponent(url.username) }),
    ...(url.password && { password: decodeURIComponent(url.password) }),
    ...(Number.isInteger(database) && { db: database }),
    ...(url.protocol === 'rediss:' && { tls: {}, enableTLSForSentinelMode: true }),
    // A master that answers as a replica (just demoted) is left for the one the Sentinels now name.
    role: 'master',
    failoverDetector: true,
  });
}
