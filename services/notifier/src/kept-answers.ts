/**
 * Answers a replica keeps a short while instead of asking again for each
 * event (a merchant's receipts switch, its branding): each kept `ttlMs` from
 * when it was asked, so a kept answer is never older than that. Callers that
 * ask while the same question is out share it; a failed question is not kept.
 * A key forgotten while its question is out is asked anew by the next caller.
 */
import { TtlCache } from '@gateway/runtime';

export class KeptAnswers<V> {
  private readonly cache: TtlCache<string, Promise<V>>;

  /** `ttlMs` 0 asks every time; at most `max` keys are kept (past it, all are forgotten). */
  constructor(ttlMs: number, max: number) {
    this.cache = new TtlCache(ttlMs, max);
  }

  /** The answer kept for `key`, or the one `ask` gives, kept. */
  get(key: string, ask: () => Promise<V>): Promise<V> {
    const kept = this.cache.lookup(key);
    if (kept) return kept.value;
    const asked = ask();
    this.cache.set(key, asked);
    asked.catch(() => this.forgetIf(key, asked));
    return asked;
  }

  /** Forgets `key`: the next caller asks again. */
  forget(key: string): void {
    this.cache.delete(key);
  }

  private forgetIf(key: string, answer: Promise<V>): void {
    if (this.cache.lookup(key)?.value === answer) this.cache.delete(key);
  }
}
