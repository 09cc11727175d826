/**
 * docs/session-states.md shows the transition table as session-states.ts
 * generates it, so the page merchants and operators read cannot drift from
 * the rules the use cases follow (D22).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { transitionTable } from '../../src/domain/session-states.js';

// The repository's docs, from services/session/dist/test/unit.
const DOC = new URL('../../../../../docs/session-states.md', import.meta.url);

/** The Markdown table that starts at `header`: the header line and every table line after it. */
function tableAt(markdown: string, header: string): string {
  const lines = markdown.split('\n');
  const start = lines.indexOf(header);
  assert.notEqual(start, -1, `no table with the header ${header}`);
  const end = lines.findIndex((line, i) => i > start && !line.startsWith('|'));
  return lines.slice(start, end === -1 ? undefined : end).join('\n');
}

describe('docs/session-states.md', () => {
  it('when the doc shows the transitions, then it has one such table and it is exactly transitionTable(), row for row (paste the output again after changing TRANSITIONS)', () => {
    const doc = readFileSync(DOC, 'utf8');
    const generated = transitionTable();
    const header = generated.split('\n')[0] ?? '';
    assert.equal(doc.split('\n').filter((line) => line === header).length, 1, 'one transition table');
    assert.equal(tableAt(doc, header), generated);
  });
});
