/**
 * Cursor pagination as the API defines it (INTERFACE 4.6, 4.8): a page is
 * { data, has_more }, newest first. Forward, the next page starts after the
 * page's last id; a list opened with ending_before walks backward, toward
 * newer items, each page ending before the previous page's first id.
 */

/** One page of a list. */
export interface Page<T> {
  data: T[];
  has_more?: boolean;
}

/** Where a page starts: after an id (older items) or before one (newer items). */
export type Cursor = { starting_after?: string; ending_before?: string };

/** A list call: iterate it for every item across pages, or ask for one page. */
export class PagedList<T> implements AsyncIterable<T> {
  /** `idOf` names the item a cursor points at: its `id`, or another field (a refund's `refund_id`). */
  constructor(
    private readonly fetchPage: (cursor: Cursor) => Promise<Page<T>>,
    private readonly first: Cursor,
    private readonly idOf: (item: T) => string = (item) => (item as { id: string }).id,
  ) {}

  /** The first page only, at the query's own cursor if it has one. */
  page(): Promise<Page<T>> {
    return this.fetchPage(this.first);
  }

  /** Every item from the query's cursor on, fetching a page only when the previous one is consumed. */
  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    const backward = this.first.ending_before !== undefined;
    let cursor = this.first;
    for (;;) {
      const page = await this.fetchPage(cursor);
      yield* page.data;
      const edge = backward ? page.data[0] : page.data.at(-1);
      if (page.has_more !== true || edge === undefined) return;
      cursor = backward ? { ending_before: this.idOf(edge) } : { starting_after: this.idOf(edge) };
    }
  }
}
