/**
 * Spreadsheet formula injection (D21, D29). A spreadsheet runs a cell that
 * starts with `=`, `+`, `-` or `@` as a formula, and some skip what comes
 * before it when it cannot be seen: spaces of any width (the no-break space,
 * U+3000...), tabs, a byte-order mark, and the other invisible format
 * characters of Unicode (category Cf: zero-width spaces, joiners, direction
 * marks). Such a cell gets a leading `'`, which spreadsheets read as "text",
 * and keeps the rest of its text intact. The full-width forms of the four
 * (＝ ＋ － ＠) count too, as some spreadsheets read them alike, and so does a
 * leading tab or carriage return on its own.
 */
const FORMULA_START = /^(?:[\t\r]|[\s\p{Cf}]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20])/u;

/** `cell` as a spreadsheet may show it without running it: prefixed with `'` when it could start a formula. */
export function formulaSafe(cell: string): string {
  return FORMULA_START.test(cell) ? `'${cell}` : cell;
}
