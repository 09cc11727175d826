/**
 * Rate limits as token buckets in Redis, shared by every gateway replica
 * (D12). One script takes a token from each bucket a request is charged to,
 * all or none, using Redis's clock so that replicas never disagree on time.
 *
 * When Redis does not answer, each replica limits on its own, in memory, at
 * its share of every budget (RATE_LIMIT_FALLBACK_REPLICAS): a limiter outage
 * neither stops payments nor lifts every limit. Redis is tried again after a
 * short pause, not on every request, so an unanswering Redis adds no latency.
 */
import type { Logger } from '@gateway/observability';
import { counter, describeError } from '@gateway/observability';
import { createRedis, type Redis, type RedisSettings } from '@gateway/runtime';

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

/** How long the replica limits on its own after Redis failed to answer, before it asks Redis again. */
const RETRY_REDIS_AFTER_MS = 1_000;

/** Limiting decisions made in memory because Redis did not answer, by outcome. */
const fallbackDecisions = counter(
  'gateway_rate_limit_fallback_total',
  'Rate-limit decisions a gateway replica made on its own because Redis did not answer, by outcome.',
  ['outcome'],
);

/**
 * The same buckets, kept by one replica in its memory at `share` of each
 * budget. Buckets left idle long enough to be full again are forgotten.
 */
export class LocalBuckets {
  private readonly levels = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly share: number,
    private readonly now: () => number = () => Date.now(),
  ) {}

  take(buckets: readonly Bucket[]): TakeResult {
    const now = this.now();
    if (this.levels.size > 100_000) this.forgetFull(now);
    const scaled = buckets.map((b) => ({ key: b.key, capacity: Math.max(1, b.capacity * this.share), perSecond: b.perSecond * this.share }));
    const levels = scaled.map((b) => {
      const state = this.levels.get(b.key);
      return state ? Math.min(b.capacity, state.tokens + ((now - state.at) * b.perSecond) / 1000) : b.capacity;
    });
    let waitMs = 0;
    scaled.forEach((b, i) => {
      const tokens = levels[i] ?? 0;
      if (tokens < 1) waitMs = Math.max(waitMs, Math.ceil(((1 - tokens) * 1000) / b.perSecond));
    });
    if (waitMs > 0) return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
    scaled.forEach((b, i) => this.levels.set(b.key, { tokens: (levels[i] ?? 0) - 1, at: now }));
    return { allowed: true };
  }

  private forgetFull(now: number): void {
    // A bucket refills at least one token a minute (the slowest budget); after an idle hour it is surely full.
    for (const [key, state] of this.levels) if (now - state.at > 3_600_000) this.levels.delete(key);
  }
}

export class TokenBuckets {
  private readonly redis: TakingRedis;
  private readonly local: LocalBuckets;
  /** Until when (epoch ms) this replica limits on its own; 0 while Redis answers. */
  private localUntil = 0;

  constructor(
    settings: RedisSettings,
    private readonly log: Logger,
    options: { fallbackReplicas?: number } = {},
  ) {
    // Auto-pipelining: the takes of the requests served in one pass of the event loop leave in one write
    // and come back in one read, instead of a system call each way per request (BENCHMARKS.md, issue 18).
    const redis = createRedis(settings, { commandTimeout: 250, maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: true, enableAutoPipelining: true });
    redis.defineCommand('takeTokens', { lua: TAKE });
    redis.on('error', () => undefined);
    this.redis = redis as TakingRedis;
    this.local = new LocalBuckets(1 / (options.fallbackReplicas ?? 1));
  }

  async connect(): Promise<void> {
    await this.redis.connect().catch((err: unknown) => this.log.warn({ err: describeError(err) }, 'redis not reachable yet'));
  }

  /**
   * Takes one token from every bucket, or none: in Redis, or in this
   * replica's memory while Redis does not answer.
   */
  async take(buckets: readonly Bucket[]): Promise<TakeResult> {
    if (Date.now() < this.localUntil) return this.takeLocally(buckets);
    const args: (string | number)[] = [...buckets.map((b) => b.key)];
    for (const b of buckets) args.push(b.capacity, b.perSecond);
    try {
      const [allowed, waitMs] = await this.redis.takeTokens(buckets.length, ...args);
      if (this.localUntil !== 0) {
        this.localUntil = 0;
        this.log.info('rate limiter answers again; budgets shared through Redis');
      }
      if (allowed === 1) return { allowed: true };
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
    } catch (err) {
      if (this.localUntil === 0) this.log.warn({ err: describeError(err) }, 'rate limiter unavailable; this replica limits on its own share of each budget');
      this.localUntil = Date.now() + RETRY_REDIS_AFTER_MS;
      return this.takeLocally(buckets);
    }
  }

  private takeLocally(buckets: readonly Bucket[]): TakeResult {
    const result = this.local.take(buckets);
    fallbackDecisions.inc({ outcome: result.allowed ? 'allowed' : 'limited' });
    return result;
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
