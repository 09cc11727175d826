/**
 * Cursor pagination as the API defines it (INTERFACE 4.6, 4.8): a page is
 * { data, has_more }, newest first, and the next page starts after the last id.
 */

/** One page of a list. */
export interface Page<T> {
  data: T[];
  has_more?: boolean;
}

/** A list call: iterate it for every item across pages, or ask for one page. */
export class PagedList<T extends { id: string }> implements AsyncIterable<T> {
  constructor(
    private readonly fetchPage: (startingAfter: string | undefined) => Promise<Page<T>>,
    private readonly startingAfter: string | undefined,
  ) {}

  /** The first page only (with the query's own cursor, if any). */
  page(): Promise<Page<T>> {
    return this.fetchPage(this.startingAfter);
  }

  /** Every item, fetching the next page only when the previous one is consumed. */
  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    let cursor = this.startingAfter;
    for (;;) {
      const page = await this.fetchPage(cursor);
      yield* page.data;
      const last = page.data.at(-1);
      if (page.has_more !== true || last === undefined) return;
      cursor = last.id;
    }
  }

  /** Every item in one array; bounded by `max` so a large account does not fill memory by accident. */
  async toArray(max = 10_000): Promise<T[]> {
    const items: T[] = [];
    for await (const item of this) {
      if (items.length >= max) break;
      items.push(item);
    }
    return items;
  }
}
