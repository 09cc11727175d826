/** The pager of a list read a page at a time with the API's cursors, newest first: "Newer" and "Older". */
import { html, type Html } from '@gateway/runtime';
import { BACK_ARROW, FORWARD_ARROW } from './layout.js';
import type { Words } from './texts/catalogue.js';

/** The cursors a page of a list was asked with ('' when not given). */
export interface Cursors {
  startingAfter: string;
  endingBefore: string;
}

/**
 * The links to the newer and the older page of `list`: `href` makes a
 * link's address from its cursor and the id it starts from. Read backwards
 * (ending_before), `has_more` speaks of newer items; else of older ones.
 */
export function cursorPager(t: Words, list: { data: readonly { id: string }[]; has_more: boolean }, cursors: Cursors, href: (cursor: 'starting_after' | 'ending_before', id: string) => string): Html {
  const first = list.data[0];
  const last = list.data[list.data.length - 1];
  const backwards = cursors.endingBefore !== '';
  return html`<nav class="pager" aria-label="${t('pages_nav')}">
${first && (backwards ? list.has_more : cursors.startingAfter !== '') ? html`<a href="${href('ending_before', first.id)}">${BACK_ARROW} ${t('newer_page')}</a>` : ''}
${last && (backwards ? cursors.endingBefore !== '' : list.has_more) ? html`<a href="${href('starting_after', last.id)}">${t('older_page')} ${FORWARD_ARROW}</a>` : ''}
</nav>`;
}
