/**
 * The optional Idempotency-Key of the API's POSTs (D10), every one of them
 * (D29). The first request with a key runs and its answer is kept; the same
 * key with the same body gets that answer again, byte for byte; with another
 * body, 422 idempotency-key-reused; while the first is still running, 409
 * conflict. An answer that shows a secret (a webhook endpoint's signing
 * secret) is kept encrypted with the service's data key (D17), never in clear.
 *
 * Only answers the same request would get again are kept: successes and 4xx
 * problems. A 5xx, a timeout or a 429 gives the key back, so that the merchant's
 * retry with the same key runs again instead of replaying a failure for a day.
 */
import { createHash } from 'node:crypto';
import { inBatches } from '@gateway/db';
import { describeError, type Logger } from '@gateway/observability';
import { AppError, toProblem, validationError } from '@gateway/problem';
import type { IdempotencyRepository, IdempotencyScope, KeptAnswer, StoredAnswer } from './idempotency.repository.js';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';

/** 1-255 printable ASCII characters. */
const KEY_SHAPE = /^[\x20-\x7E]{1,255}$/;
/** No route of the API comes near this; a longer path cannot name anything, and would not fit the key's index. */
const MAX_ROUTE_LENGTH = 1024;
/** Expired keys deleted per statement, and statements per purge run, so that a purge never holds many locks for long. */
const PURGE_BATCH = 1000;
const PURGE_BATCHES_PER_RUN = 20;

/** An answer of the API: its status, its exact body, and whether it is a replay of the first one. */
export interface Answer extends StoredAnswer {
  replayed: boolean;
}

export interface IdempotencySettings {
  /** How long keys are kept (IDEMPOTENCY_TTL_SECONDS). */
  ttlSeconds: number;
  /** After how long a claim still running is abandoned: past the command deadline, with a margin. */
  abandonedAfterMs: number;
  /** Host of problem type URIs, to store a 4xx answer exactly as it is sent. */
  errorsHost: string;
  log: Logger;
}

/** Encrypts an answer that shows a secret before it is kept, and decrypts it for a replay (D17: the service's SecretBox). */
export interface AnswerSealer {
  encrypt(plaintext: string, aad: string): string;
  decrypt(ciphertext: string, aad: string): Promise<string>;
}

/** How one call's answer is kept. */
export interface RunOptions {
  /** The answer shows a secret: kept encrypted by the sealer. */
  sealed?: boolean;
}

/** The key of the Idempotency-Key header, checked; 422 validation-error when it is not 1-255 printable ASCII characters. */
export function parseIdempotencyKey(header: string): string {
  if (!KEY_SHAPE.test(header)) {
    throw validationError([{ field: IDEMPOTENCY_KEY_HEADER, code: 'invalid', message: 'Idempotency-Key must be 1 to 255 printable ASCII characters.' }]);
  }
  return header;
}

/** JSON with object keys sorted at every depth, so that key order and whitespace do not change a request's hash. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const object = value as Record<string, unknown>;
    return `{${Object.keys(object)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(object[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/** SHA-256 of the canonical request body; an absent body hashes as the empty string. */
export function requestHash(body: unknown): Buffer {
  return createHash('sha256')
    .update(body === undefined ? '' : canonicalJson(body), 'utf8')
    .digest();
}

export class IdempotentCalls {
  constructor(
    private readonly keys: IdempotencyRepository,
    private readonly settings: IdempotencySettings,
    /** Needed only by calls run with `sealed`. */
    private readonly sealer?: AnswerSealer,
  ) {}

  /** Runs `call` once per (scope, body): the first time for real, then as the replay of its stored answer. */
  async run(scope: IdempotencyScope, body: unknown, call: () => Promise<StoredAnswer>, options: RunOptions = {}): Promise<Answer> {
    if (scope.route.length > MAX_ROUTE_LENGTH) throw new AppError('not-found', 'No such route.');
    const hash = requestHash(body);
    const claim = await this.keys.claim(scope, hash, this.settings);
    if (claim.kind === 'taken') {
      if (!claim.requestHash.equals(hash)) throw new AppError('idempotency-key-reused');
      if (claim.state === 'started') {
        throw new AppError('conflict', 'The first request with this Idempotency-Key is still in flight; retry once it has been answered.');
      }
      const { status, body: kept, sealed } = claim.answer;
      return { status, body: sealed ? await this.sealerOf().decrypt(kept, sealedAnswerAad(scope)) : kept, replayed: true };
    }

    let answer: StoredAnswer;
    try {
      answer = await call();
    } catch (err) {
      if (err instanceof AppError && isFinal(err)) {
        await this.store(scope, claim.token, { status: err.status, body: JSON.stringify(toProblem(err, this.settings.errorsHost)) }, options);
      } else {
        await this.release(scope, claim.token);
      }
      throw err;
    }
    await this.store(scope, claim.token, answer, options);
    return { ...answer, replayed: false };
  }

  /** Deletes expired keys (every replica may run this at once). */
  async purgeExpired(): Promise<number> {
    return inBatches({ size: PURGE_BATCH, maxBatches: PURGE_BATCHES_PER_RUN }, () => this.keys.purgeExpired(PURGE_BATCH));
  }

  // The command has run: its answer goes to the merchant even when it cannot be
  // stored. The claim then stays 'started' until it counts as abandoned.
  private async store(scope: IdempotencyScope, token: string, answer: StoredAnswer, options: RunOptions): Promise<void> {
    try {
      const kept: KeptAnswer = options.sealed ? { status: answer.status, body: this.sealerOf().encrypt(answer.body, sealedAnswerAad(scope)), sealed: true } : { ...answer, sealed: false };
      const stored = await this.keys.complete(scope, token, kept);
      if (!stored) this.settings.log.warn({ route: scope.route, merchantId: scope.merchantId }, 'idempotency claim was taken over before its answer was stored');
    } catch (err) {
      this.settings.log.warn({ err: describeError(err), route: scope.route, merchantId: scope.merchantId }, 'idempotent answer not stored');
    }
  }

  private sealerOf(): AnswerSealer {
    if (!this.sealer) throw new Error('An answer that shows a secret is kept only with a sealer.');
    return this.sealer;
  }

  private async release(scope: IdempotencyScope, token: string): Promise<void> {
    try {
      await this.keys.release(scope, token);
    } catch (err) {
      this.settings.log.warn({ err: describeError(err), route: scope.route, merchantId: scope.merchantId }, 'idempotency claim not released');
    }
  }
}

/** What a sealed answer is bound to: its table, column and row, so that it decrypts nowhere else. */
function sealedAnswerAad(scope: IdempotencyScope): string {
  return `api_gateway.idempotency_keys.response_body:${JSON.stringify([scope.merchantId, scope.livemode, scope.key, scope.route])}`;
}

/**
 * A 4xx the same request would get again. 429 is not (it says "retry"), nor
 * is `conflict` (something still under way: a payment attempt, a refund):
 * kept, it would be replayed for 24 h after what it waited for had ended.
 */
export function isFinal(err: AppError): boolean {
  return err.status < 500 && err.status !== 429 && err.code !== 'conflict';
}
