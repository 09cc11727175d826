/**
 * How many requests each client address made in the current minute, counted
 * in this process alone: a bound on what one address can make a replica do,
 * not a budget shared by replicas (those live in the database or Redis).
 * Memory stays bounded whatever the addresses: past `maxAddresses` in one
 * minute, every further address counts in one shared count, so a flood of
 * addresses limits itself instead of growing the map.
 */
export class MinuteCounter {
  private minute = Number.NaN;
  private readonly counts = new Map<string, number>();
  private overflow = 0;

  constructor(private readonly maxAddresses = 10_000) {}

  /** Counts a request of `address` at `nowMs`: how many it made this minute, this one included. */
  count(address: string, nowMs: number): number {
    const minute = Math.floor(nowMs / 60_000);
    if (minute !== this.minute) {
      this.minute = minute;
      this.counts.clear();
      this.overflow = 0;
    }
    const counted = this.counts.get(address);
    if (counted === undefined && this.counts.size >= this.maxAddresses) return (this.overflow += 1);
    const next = (counted ?? 0) + 1;
    this.counts.set(address, next);
    return next;
  }

  /** Whole seconds (at least 1) until the minute of `nowMs` ends and the counts start again. */
  static retryAfterSeconds(nowMs: number): number {
    return Math.max(1, Math.ceil((60_000 - (nowMs % 60_000)) / 1000));
  }
}
