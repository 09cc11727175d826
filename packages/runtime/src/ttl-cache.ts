/**
 * What a replica keeps in memory for a short while instead of asking again on
 * every request (an API key's caller, a merchant's branding): each entry
 * lapses `ttlMs` after it was kept, and the whole cache is emptied once it
 * holds `max` entries, so memory stays bounded whatever the keys.
 */
export class TtlCache<K, V> {
  private readonly entries = new Map<K, { value: V; until: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly max: number,
  ) {}

  /** The entry of `key` while it has not lapsed, wrapped so that a kept `undefined` is told from none. */
  lookup(key: K, now = Date.now()): { value: V } | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.until > now) return { value: entry.value };
    this.entries.delete(key);
    return undefined;
  }

  set(key: K, value: V, now = Date.now()): void {
    if (this.ttlMs <= 0) return;
    if (this.entries.size >= this.max) this.entries.clear();
    this.entries.set(key, { value, until: now + this.ttlMs });
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  /** Forgets every entry whose value `matches`. */
  deleteWhere(matches: (value: V) => boolean): void {
    for (const [key, entry] of this.entries) if (matches(entry.value)) this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
