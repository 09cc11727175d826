import assert from 'node:assert/strict';
import { formulaSafe } from '../../src/formula-cells.js';

describe('Cells a spreadsheet could run as a formula (D21, D29)', () => {
  it('when a cell starts with =, +, -, @ or their full-width forms, or a tab or carriage return, then it is prefixed with an apostrophe', () => {
    for (const cell of ['=1+1', '+1', '-5.000', '@SUM(A1)', '\tlead', '\rlead', '\uFF1D1', '\uFF0B1', '\uFF0D1', '\uFF20me']) assert.equal(formulaSafe(cell), `'${cell}`, JSON.stringify(cell));
  });

  it('when spaces of any width, tabs, a byte-order mark or other invisible format characters come before =, +, - or @, then the cell is prefixed too', () => {
    const leads = [' ', '   ', '\u00a0', '\ufeff', '\u200b', '\u200e', '\u202e', '\u2060', '\u00ad', '\u3000', '\u2003', '\u180e', '\n', ' \u00a0\t\ufeff\u200b'];
    for (const lead of leads) {
      for (const start of ['=', '+', '-', '@', '\uFF1D']) assert.equal(formulaSafe(`${lead}${start}cmd`), `'${lead}${start}cmd`, JSON.stringify(lead + start));
    }
  });

  it('when the text is anything else, then it is kept as it is: a sign later in the cell, a space before a letter or digit, an empty cell', () => {
    for (const cell of ['', 'a=b', ' plain', '\u00a0 5', '\u200bname', 'Amina', "'kept", '12.500', '  ']) assert.equal(formulaSafe(cell), cell, JSON.stringify(cell));
  });
});
