/**
 * Rate limits as token buckets in Redis, shared by every gateway replica
 * (D12). One script takes a token from each bucket a request is charged to,
 * all or none, using Redis's clock so that replicas never disagree on time.
 */
import { Redis } from 'ioredis';
import type { Logger } from '@gateway/observability';
import { describeError } from '@gateway/observability';

/** A bucket: its key, its capacity and its refill rate in tokens per second. */
export interface Bucket {
  key: string;
  capacity: number;
  perSecond: number;
}

export type TakeResult = { allowed: true } | { allowed: false; retryAfterSeconds: number };

// KEYS: the buckets. ARGV: capacity and refill rate of each bucket, in order.
// Returns {1, 0} when a token was taken from every bucket, else {0, ms to wait}.
const TAKE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local levels = {}
local wait = 0
for i = 1, #KEYS do
  local capacity = tonumber(ARGV[2 * i - 1])
  local rate = tonumber(ARGV[2 * i])
  local state = redis.call('HMGET', KEYS[i], 'tokens', 'at')
  local tokens = tonumber(state[1])
  local at = tonumber(state[2])
  if tokens == nil or at == nil then
    tokens = capacity
  else
    tokens = math.min(capacity, tokens + math.max(0, now - at) * rate / 1000)
  end
  levels[i] = tokens
  if tokens < 1 then
    local need = math.ceil((1 - tokens) * 1000 / rate)
    if need > wait then wait = need end
  end
end
if wait > 0 then return {0, wait} end
for i = 1, #KEYS do
  local capacity = tonumber(ARGV[2 * i - 1])
  local rate = tonumber(ARGV[2 * i])
  redis.call('HSET', KEYS[i], 'tokens', tostring(levels[i] - 1), 'at', now)
  redis.call('PEXPIRE', KEYS[i], math.ceil(capacity * 1000 / rate) + 1000)
end
return {1, 0}
`;

interface TakingRedis extends Redis {
  takeTokens(numberOfKeys: number, ...args: (string | number)[]): Promise<[number, number]>;
}

export class TokenBuckets {
  private readonly redis: TakingRedis;

  constructor(
    url: string,
    private readonly log: Logger,
  ) {
    const redis = new Redis(url, { commandTimeout: 250, maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: true });
    redis.defineCommand('takeTokens', { lua: TAKE });
    redis.on('error', () => undefined);
    this.redis = redis as TakingRedis;
  }

  async connect(): Promise<void> {
    await this.redis.connect().catch((err: unknown) => this.log.warn({ err: describeError(err) }, 'redis not reachable yet'));
  }

  /**
   * Takes one token from every bucket, or none. When Redis does not answer,
   * the request is let through (and logged): a limiter outage must not stop payments.
   */
  async take(buckets: readonly Bucket[]): Promise<TakeResult> {
    const args: (string | number)[] = [...buckets.map((b) => b.key)];
    for (const b of buckets) args.push(b.capacity, b.perSecond);
    try {
      const [allowed, waitMs] = await this.redis.takeTokens(buckets.length, ...args);
      if (allowed === 1) return { allowed: true };
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
    } catch (err) {
      this.log.warn({ err: describeError(err) }, 'rate limiter unavailable; request let through');
      return { allowed: true };
    }
  }

  async ping(): Promise<boolean> {
    try {
      return (await this.redis.ping()) === 'PONG';
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
