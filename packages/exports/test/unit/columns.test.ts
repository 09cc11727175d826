import assert from 'node:assert/strict';
import { Type } from '@sinclair/typebox';
import { BalanceTransaction, Refund, SessionListItem } from '@gateway/contracts';
import { cellOf, columnsOf, exportColumns, rowOf } from '../../src/index.js';

const names = (kind: Parameters<typeof exportColumns>[0]) => exportColumns(kind).map((column) => column.name);

describe('Export columns (D21)', () => {
  it('when the sessions export is described, then its columns are the list item fields in schema order, original flattened with dots', () => {
    assert.deepEqual(names('sessions'), [
      'id',
      'merchant_reference',
      'order_number',
      'order_id',
      'amount',
      'currency',
      'original.amount',
      'original.currency',
      'original.rate',
      'status',
      'livemode',
      'buyer_first_name',
      'buyer_last_name',
      'buyer_email',
      'created_at',
      'payment_link',
      'customer',
      'payment_method',
    ]);
  });

  it('when the refunds and balance transactions exports are described, then each field of the schema is a column, optional ones included', () => {
    assert.deepEqual(names('refunds'), Object.keys(Refund.properties));
    assert.ok(names('refunds').includes('epg_error_message'));
    assert.deepEqual(names('balance_transactions'), Object.keys(BalanceTransaction.properties));
    assert.equal(names('balance_transactions').at(-1), 'payment_method', 'how the buyer paid (D26), after the columns older files had');
  });

  it('when a field is added to an item schema, then it is a column without being written anywhere else', () => {
    const wider = Type.Object({ ...SessionListItem.properties, settled: Type.Boolean() });
    assert.deepEqual(
      columnsOf(wider).map((column) => column.name),
      [...names('sessions'), 'settled'],
    );
  });

  it('when an item has nested objects, arrays, records, nulls and missing fields, then each becomes its cell', () => {
    const schema = Type.Object({
      id: Type.String(),
      outer: Type.Object({ inner: Type.Object({ deep: Type.String() }), n: Type.Integer() }),
      items: Type.Array(Type.Object({ name: Type.String() })),
      metadata: Type.Record(Type.String(), Type.String()),
      note: Type.Optional(Type.String()),
      paid: Type.Boolean(),
      at: Type.String({ format: 'date-time' }),
      resolved_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
      day: Type.String({ format: 'date' }),
    });
    const columns = columnsOf(schema);
    assert.deepEqual(
      columns.map((column) => column.name),
      ['id', 'outer.inner.deep', 'outer.n', 'items', 'metadata', 'note', 'paid', 'at', 'resolved_at', 'day'],
    );
    const item = {
      id: 'x_1',
      outer: { inner: { deep: 'd' }, n: 3 },
      items: [{ name: 'Tea, green', quantity: 2 }],
      metadata: { order: 'A-1', 'é': '"quoted"' },
      paid: false,
      at: '2026-11-30T10:15:00.123456Z',
      resolved_at: null,
      day: '2026-12-02',
    };
    assert.deepEqual(rowOf(columns, item), [
      'x_1',
      'd',
      '3',
      '[{"name":"Tea, green","quantity":2}]',
      '{"order":"A-1","é":"\\"quoted\\""}',
      '',
      'false',
      '2026-11-30T10:15:00.123456Z',
      '',
      '2026-12-02',
    ]);
  });

  it('when a time comes with an offset, then its cell is the same instant in UTC; a UTC time is kept to the digit', () => {
    const [at] = columnsOf(Type.Object({ at: Type.String({ format: 'date-time' }) }));
    assert.ok(at);
    assert.equal(cellOf(at, { at: '2026-11-30T11:15:00+01:00' }), '2026-11-30T10:15:00.000Z');
    assert.equal(cellOf(at, { at: '2026-11-30T10:15:00.5Z' }), '2026-11-30T10:15:00.5Z');
  });

  it('when a nested object is missing from an item, then its columns are empty', () => {
    const row = rowOf(exportColumns('sessions'), { id: 'ps_1', amount: '5.000' });
    assert.equal(row.length, names('sessions').length);
    assert.deepEqual(row.slice(0, 9), ['ps_1', '', '', '', '5.000', '', '', '', '']);
  });

  it('when the item schema is not an object of fields, then no columns can be derived', () => {
    assert.throws(() => columnsOf(Type.Record(Type.String(), Type.String())), /object schema/);
  });
});
