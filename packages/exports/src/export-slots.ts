/**
 * How many exports run at once (D29 on D21): at most `perMerchant` per
 * merchant and mode, counted in Redis so that every replica of a door
 * shares the count, as the rate limits are. Each running export holds a
 * slot: a member of a sorted set whose score is when its lease ends. The
 * export renews its lease while it runs and removes it when it ends, however
 * it ends; a replica that dies stops renewing, and its slots lapse with their
 * lease instead of being held for ever. Redis's clock decides, so replicas
 * never disagree on time.
 *
 * When Redis does not answer, each replica counts in its memory at its share
 * of the limit (at least one), as the rate limits do: an outage neither
 * stops exports nor lifts the limit.
 *
 * Every door that serves an export (the API gateway, the dashboard) holds it
 * to these slots through `withExportSlot`, with the same settings
 * (@gateway/config's exportSettings and rateLimitSettings), so the exports of
 * one merchant and mode count together whichever door they came through.
 */
import { randomUUID } from 'node:crypto';
import { counter, describeError, type Logger } from '@gateway/observability';
import { AppError } from '@gateway/problem';

/** What the slots need of a Redis client: ioredis's `eval`. */
export interface SlotStore {
  eval(script: string, numberOfKeys: number, ...args: (string | number)[]): Promise<unknown>;
}

export interface ExportSlotSettings {
  /** Exports one merchant may run at once in one mode (EXPORTS_PER_MERCHANT). */
  perMerchant: number;
  /** How long a slot outlives its last renewal: the longest a dead replica's slot stays taken. */
  leaseSeconds: number;
  /** Namespace of the Redis keys (the rate limits' RATE_LIMIT_KEY_PREFIX). */
  keyPrefix: string;
  /** How many replicas share the limit when Redis does not answer: each then allows its share. */
  fallbackReplicas: number;
}

/**
 * How a door's own Redis connection for the slots is made: an unanswering
 * Redis is given up on quickly (a quarter second), and the replica counts
 * alone, as the rate limits do.
 */
export const SLOT_STORE_OPTIONS = { commandTimeout: 250, maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: true } as const;

/**
 * The refusal of an export past EXPORTS_PER_MERCHANT (D29): 429 with
 * Retry-After, the same words at every door (the dashboard shows them in
 * the page's language through its catalogue).
 */
export const EXPORTS_BUSY = 'Too many exports are running at once for this account and mode. Try again shortly.';

/** Exports take minutes at most, often seconds: a few seconds' wait is a fair first retry. */
const EXPORT_RETRY_AFTER_SECONDS = 5;

/** A running export's place; `release` gives it back (once; later calls do nothing). */
export interface ExportSlot {
  release(): void;
}

// KEYS: the account's set. ARGV: the limit, the lease in ms, the slot's id. 1 when taken, 0 when every slot is.
const TAKE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]))
return 1
`;

// KEYS: the account's set. ARGV: the lease in ms, the slot's id. Renewed even if it had lapsed: the export still runs.
const RENEW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[1]), ARGV[2])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[1]))
return 1
`;

const RELEASE = `return redis.call('ZREM', KEYS[1], ARGV[1])`;

/** Exports refused because every slot of the account was taken, and slot decisions made without Redis. */
const refusedExports = counter('gateway_exports_refused_total', 'CSV exports refused because the account ran as many as it may at once (D29).', []);
const fallbackDecisions = counter('gateway_export_slots_fallback_total', 'Export slot decisions a replica made on its own because Redis did not answer, by outcome.', ['outcome']);

/** Renewals per lease: a renewal or two may be late or lost before a running export's slot lapses. */
const RENEWALS_PER_LEASE = 3;

export class ExportSlots {
  /** Slots counted in this replica's memory while Redis does not answer, by account key. */
  private readonly local = new Map<string, number>();
  private redisOut = false;

  constructor(
    private readonly store: SlotStore,
    private readonly settings: ExportSlotSettings,
    private readonly log: Logger,
  ) {}

  /** The slots of a service's settings, as @gateway/config's exportSettings and rateLimitSettings name them. */
  static fromConfig(
    store: SlotStore,
    config: { exportsPerMerchant: number; exportSlotLeaseSeconds: number; rateLimitKeyPrefix: string; rateLimitFallbackReplicas: number },
    log: Logger,
  ): ExportSlots {
    return new ExportSlots(
      store,
      { perMerchant: config.exportsPerMerchant, leaseSeconds: config.exportSlotLeaseSeconds, keyPrefix: config.rateLimitKeyPrefix, fallbackReplicas: config.rateLimitFallbackReplicas },
      log,
    );
  }

  /** A slot for one more export of the account, or undefined when it runs as many as it may. */
  async take(account: { merchantId: string; livemode: boolean }): Promise<ExportSlot | undefined> {
    const key = `${this.settings.keyPrefix}:exports:{${account.merchantId}:${account.livemode ? 'live' : 'test'}}`;
    const id = randomUUID();
    const leaseMs = this.settings.leaseSeconds * 1000;
    let taken: boolean;
    try {
      taken = Number(await this.store.eval(TAKE, 1, key, this.settings.perMerchant, leaseMs, id)) === 1;
      this.redisAnswers();
    } catch (err) {
      this.redisFailed(err);
      return this.takeLocally(key);
    }
    if (!taken) {
      refusedExports.inc();
      return undefined;
    }
    const renewal = setInterval(() => {
      this.store.eval(RENEW, 1, key, leaseMs, id).then(
        () => this.redisAnswers(),
        (err: unknown) => this.redisFailed(err),
      );
    }, leaseMs / RENEWALS_PER_LEASE);
    renewal.unref();
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        clearInterval(renewal);
        // Not given back now (Redis out): the lease gives it back.
        this.store.eval(RELEASE, 1, key, id).catch((err: unknown) => this.redisFailed(err));
      },
    };
  }

  /** This replica's share of the limit, counted in memory. */
  private takeLocally(key: string): ExportSlot | undefined {
    const share = Math.max(1, Math.floor(this.settings.perMerchant / this.settings.fallbackReplicas));
    const running = this.local.get(key) ?? 0;
    fallbackDecisions.inc({ outcome: running < share ? 'allowed' : 'limited' });
    if (running >= share) {
      refusedExports.inc();
      return undefined;
    }
    this.local.set(key, running + 1);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        const left = (this.local.get(key) ?? 1) - 1;
        if (left > 0) this.local.set(key, left);
        else this.local.delete(key);
      },
    };
  }

  private redisFailed(err: unknown): void {
    if (!this.redisOut) this.log.warn({ err: describeError(err) }, 'export slots: Redis does not answer; this replica counts its own share of each account\'s exports');
    this.redisOut = true;
  }

  private redisAnswers(): void {
    if (this.redisOut) this.log.info('export slots shared through Redis again');
    this.redisOut = false;
  }
}

/**
 * Runs `work` (an export, from its first page to its answer's end) holding a
 * slot of the account, and gives the slot back however `work` ends: its
 * answer written, its client gone, EXPORT_MAX_SECONDS run out (sendCsv ends
 * each of these), or a failure. With every slot taken, `work` does not run:
 * rejects with a 429 rate-limit-exceeded problem with Retry-After (EXPORTS_BUSY).
 */
export async function withExportSlot<T>(slots: Pick<ExportSlots, 'take'>, account: { merchantId: string; livemode: boolean }, work: () => Promise<T>): Promise<T> {
  const slot = await slots.take(account);
  if (!slot) throw new AppError('rate-limit-exceeded', EXPORTS_BUSY, { retry_after: EXPORT_RETRY_AFTER_SECONDS });
  try {
    return await work();
  } finally {
    slot.release();
  }
}
