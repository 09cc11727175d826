import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { PassThrough, Writable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { AppError, validationError } from '@gateway/problem';
import { exportFileName, exportHeaders, openExport, sendCsv, type FetchPage, type Page, type PageRequest } from '../../src/index.js';

/** A balance transaction as the ledger lists it. */
function txn(n: number, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: `txn_${String(n).padStart(20, '0')}`,
    type: 'payment',
    session_id: 'ps_00000000000000000001',
    source: 'ps_00000000000000000001',
    amount: '10.000',
    fee: '0.300',
    net: '9.700',
    currency: 'TND',
    created_at: '2026-11-30T10:15:00.000Z',
    available_on: '2026-12-02',
    livemode: false,
    payment_method: 'card',
    ...overrides,
  };
}

/** A list of `count` transactions, newest first, read page by page as a list command pages them; every request is kept. */
function ledger(count: number): { fetchPage: FetchPage; requests: PageRequest[] } {
  const all = Array.from({ length: count }, (_, i) => txn(count - i));
  const requests: PageRequest[] = [];
  const fetchPage: FetchPage = async (request) => {
    requests.push(request);
    const after = request.query['starting_after'];
    const start = after === undefined ? 0 : all.findIndex((item) => item['id'] === after) + 1;
    const data = all.slice(start, start + request.page_size);
    return { data, has_more: start + request.page_size < all.length };
  };
  return { fetchPage, requests };
}

/** Everything written to a stream, once it ends. */
function collect(): { target: PassThrough; text: Promise<string> } {
  const target = new PassThrough();
  const chunks: Buffer[] = [];
  target.on('data', (chunk: Buffer) => chunks.push(chunk));
  const text = new Promise<string>((resolve) => target.on('end', () => resolve(Buffer.concat(chunks).toString('utf8'))));
  return { target, text };
}

const HEADER = 'id,type,session_id,source,amount,fee,net,currency,created_at,available_on,livemode,payment_method';

describe('CSV export (D21)', () => {
  it('when a list spans several pages, then the header row comes first and every row follows once, in list order, each page asked after the last id', async () => {
    const { fetchPage, requests } = ledger(25);
    const csv = await openExport('balance_transactions', { type: 'payment' }, fetchPage, { pageSize: 10 });
    const { target, text } = collect();
    assert.deepEqual(await csv.writeTo(target), { rows: 25 });
    const lines = (await text).split('\r\n');
    assert.equal(lines[0], HEADER);
    assert.equal(lines.length, 27, 'header, 25 rows, and the empty string after the last CRLF');
    assert.equal(lines.at(-1), '');
    const records = parse(await text, { columns: true }) as Record<string, string>[];
    assert.deepEqual(
      records.map((record) => record['id']),
      Array.from({ length: 25 }, (_, i) => txn(25 - i)['id']),
    );
    assert.deepEqual(
      requests.map((request) => [request.query, request.page_size]),
      [
        [{ type: 'payment' }, 10],
        [{ type: 'payment', starting_after: txn(16)['id'] }, 10],
        [{ type: 'payment', starting_after: txn(6)['id'] }, 10],
      ],
    );
  });

  it('when the list is empty, then the export is the header row alone', async () => {
    const csv = await openExport('balance_transactions', {}, async () => ({ data: [], has_more: false }));
    const { target, text } = collect();
    await csv.writeTo(target);
    assert.equal(await text, `${HEADER}\r\n`);
  });

  it('when a payment was made with Flouci, then its row and its refund\'s say flouci in the payment_method column, a card payment\'s card (D26)', async () => {
    const items = [txn(3, { type: 'refund', amount: '-4.000', fee: '0.000', net: '-4.000', payment_method: 'flouci' }), txn(2, { payment_method: 'flouci' }), txn(1)];
    const csv = await openExport('balance_transactions', {}, async () => ({ data: items, has_more: false }));
    const { target, text } = collect();
    await csv.writeTo(target);
    const records = parse(await text, { columns: true }) as Record<string, string>[];
    assert.deepEqual(
      records.map((record) => [record['type'], record['payment_method']]),
      [
        ['refund', 'flouci'],
        ['payment', 'flouci'],
        ['payment', 'card'],
      ],
    );
  });

  it('when a cell starts with =, +, -, @, tab or carriage return, then it is prefixed with an apostrophe, a negative amount too; elsewhere in a cell they stay', async () => {
    const risky = ['=HYPERLINK("http://x","y")', '+1', '-5.000', '@SUM(A1)', '\tlead', '\rlead', 'a=b', "'kept"];
    const items = risky.map((source, i) => txn(i + 1, { source, amount: '-5.000', net: '-5.000', fee: '0.000' }));
    const csv = await openExport('balance_transactions', {}, async () => ({ data: items, has_more: false }));
    const { target, text } = collect();
    await csv.writeTo(target);
    const records = parse(await text, { columns: true }) as Record<string, string>[];
    assert.deepEqual(
      records.map((record) => record['source']),
      ['\'=HYPERLINK("http://x","y")', "'+1", "'-5.000", "'@SUM(A1)", "'\tlead", "'\rlead", 'a=b', "'kept"],
    );
    assert.ok(records.every((record) => record['amount'] === "'-5.000" && record['net'] === "'-5.000" && record['fee'] === '0.000'));
  });

  it('when a cell holds a comma, a quote or a line break, then it is quoted as RFC 4180 says, and parses back to itself', async () => {
    const reasons = ['Damaged, returned', 'The "blue" one', 'two\nlines', 'cr\r\nlf', 'plain'];
    const items = reasons.map((reason, i) => ({
      refund_id: `re_${String(i).padStart(20, '0')}`,
      session_id: 'ps_00000000000000000001',
      amount: '1.000',
      currency: 'TND',
      reason,
      metadata: { note: 'a,"b"' },
      automated_refund: true,
      status: 'succeeded',
      created_at: '2026-11-30T10:15:00.000Z',
      resolved_at: null,
    }));
    const csv = await openExport('refunds', {}, async () => ({ data: items, has_more: false }));
    const { target, text } = collect();
    await csv.writeTo(target);
    const written = await text;
    assert.ok(written.includes('"Damaged, returned"') && written.includes('"The ""blue"" one"') && written.includes('"two\nlines"'));
    assert.ok(written.includes('"{""note"":""a,\\""b\\""""}"'), written);
    const records = parse(written, { columns: true }) as Record<string, string>[];
    assert.deepEqual(
      records.map((record) => record['reason']),
      reasons,
    );
    assert.deepEqual(JSON.parse(records[0]?.['metadata'] ?? ''), { note: 'a,"b"' });
    assert.deepEqual([records[0]?.['epg_error_message'], records[0]?.['resolved_at'], records[0]?.['automated_refund']], ['', '', 'true']);
  });

  it('when the list refuses the filters, then opening the export rejects with its problem and asks for nothing more', async () => {
    const refused = validationError([{ field: 'created[gte]', code: 'invalid', message: 'created[gte] must not be after created[lte].' }]);
    let calls = 0;
    await assert.rejects(
      openExport('sessions', { 'created[gte]': '2026-12-01T00:00:00Z', 'created[lte]': '2026-11-01T00:00:00Z' }, async () => {
        calls += 1;
        throw refused;
      }),
      (err) => err === refused,
    );
    assert.equal(calls, 1);
  });

  it('when the query holds paging parameters, then the export is refused naming each, with the filters the list refused, in query order', async () => {
    const { fetchPage, requests } = ledger(3);
    await assert.rejects(openExport('balance_transactions', { limit: '5', type: 'payment' }, fetchPage), (err) => {
      assert.ok(err instanceof AppError);
      assert.equal(err.code, 'validation-error');
      assert.deepEqual(
        err.errors.map((e) => [e.field, e.code]),
        [['limit', 'invalid']],
      );
      return true;
    });
    assert.deepEqual(requests[0], { query: { type: 'payment' }, page_size: 1 }, 'the paging parameter is not passed on');

    const listRefuses: FetchPage = async () => {
      throw validationError([{ field: 'colour', code: 'invalid', message: 'colour is not a known field.' }]);
    };
    await assert.rejects(openExport('sessions', { colour: 'red', starting_after: 'ps_1', ending_before: 'ps_2' }, listRefuses), (err) => {
      assert.ok(err instanceof AppError);
      assert.deepEqual(
        err.errors.map((e) => e.field),
        ['colour', 'starting_after', 'ending_before'],
      );
      return true;
    });
  });

  it('when a later page fails, then the target is destroyed after the rows already written, never ended as if complete', async () => {
    const { fetchPage: pages } = ledger(30);
    let calls = 0;
    const failing: FetchPage = async (request) => {
      calls += 1;
      if (calls === 3) throw new Error('broker connection lost during ledger.list_transactions');
      return pages(request);
    };
    const csv = await openExport('balance_transactions', {}, failing, { pageSize: 10 });
    const target = new PassThrough();
    let received = '';
    target.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
    let ended = false;
    target.on('end', () => (ended = true));
    await assert.rejects(csv.writeTo(target), /broker connection lost/);
    assert.equal(target.destroyed, true);
    assert.equal(ended, false);
    assert.equal(csv.rows, 20);
    assert.ok(received.startsWith(`${HEADER}\r\n`));
  });

  it('when the client stops reading, then the export stops reading the list: a few hundred rows are buffered at most, and one page ahead', async () => {
    const { fetchPage, requests } = ledger(5_000);
    const csv = await openExport('balance_transactions', {}, fetchPage, { pageSize: 100 });
    // A client that stopped reading: no write is ever acknowledged.
    const stuck = new Writable({ write: () => undefined });
    const writing = csv.writeTo(stuck);
    writing.catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 300));
    // The stream buffers (the writer's 16 KiB, the CSV transform's) hold about 300 rows of this size.
    assert.ok(csv.rows <= 500, `${csv.rows} rows taken`);
    assert.ok(requests.length <= Math.ceil(csv.rows / 100) + 1, `${requests.length} pages read for ${csv.rows} rows`);
    stuck.destroy();
    await assert.rejects(writing);
    const read = requests.length;
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(requests.length, read, 'nothing is read once the target is gone');
  });

  it('when an export is written twice, then the second write is refused', async () => {
    const csv = await openExport('balance_transactions', {}, async (): Promise<Page> => ({ data: [], has_more: false }));
    await csv.writeTo(new PassThrough().resume());
    await assert.rejects(csv.writeTo(new PassThrough()), /written once/);
  });

  it('when the headers are made, then the file is CSV in UTF-8 named after the kind, the mode and the UTC date', () => {
    const at = new Date('2026-11-30T23:30:00Z');
    assert.deepEqual(exportHeaders('balance_transactions', true, at), {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': 'attachment; filename="balance_transactions-live-2026-11-30.csv"',
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    });
    assert.equal(exportFileName('sessions', false, at), 'sessions-test-2026-11-30.csv');
  });

  it('when a page size outside 1 to 1,000 is asked for, then the export does not start', async () => {
    await assert.rejects(openExport('sessions', {}, async () => ({ data: [], has_more: false }), { pageSize: 1001 }), RangeError);
  });
});

describe('An export answered over HTTP (sendCsv)', () => {
  const silent = { info: () => undefined, error: () => undefined } as unknown as Parameters<typeof sendCsv>[2]['log'];

  /** A server answering one export of `count` transactions with `options`, and what its answer did. */
  async function serve(options: { idleTimeoutMs: number; headOnly?: boolean }) {
    // A list without end, each page made from its cursor: the export stops only when its answer does.
    const requests: PageRequest[] = [];
    const fetchPage: FetchPage = async (request) => {
      requests.push(request);
      const after = Number(String(request.query['starting_after'] ?? 'txn_0').slice(4));
      return { data: Array.from({ length: request.page_size }, (_, i) => txn(after + i + 1)), has_more: true };
    };
    let closed!: () => void;
    const answerClosed = new Promise<void>((resolve) => (closed = resolve));
    const server = createServer((_req, res) => {
      res.on('close', closed);
      void openExport('balance_transactions', {}, fetchPage).then((csv) => sendCsv(csv, res, { livemode: false, requestId: 'r', log: silent, maxSeconds: 600, ...options }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return { port, requests, answerClosed, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
  }

  it('when the client stops reading, then after the idle time the answer is cut off and no more pages are asked for', async () => {
    const server = await serve({ idleTimeoutMs: 300 });
    const socket = connect(server.port, '127.0.0.1');
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    socket.pause();
    await server.answerClosed;
    const asked = server.requests.length;
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(server.requests.length, asked, 'no page is read once the answer is cut off');
    assert.ok(asked < 1_000, `${asked} pages read before the cut`);
    socket.destroy();
    await server.close();
  });

  it('when the export is asked with HEAD, then the headers come without the pages beyond the first', async () => {
    const server = await serve({ idleTimeoutMs: 1_000, headOnly: true });
    const res = await fetch(`http://127.0.0.1:${server.port}/`, { method: 'HEAD' });
    assert.equal(res.headers.get('content-type'), 'text/csv; charset=utf-8');
    assert.equal(server.requests.length, 1);
    await server.close();
  });
});

describe('The page size of an export', () => {
  it('when refunds are exported, then a page holds at most 250 of them, whatever the door asks, so a page of refunds with full metadata stays under a broker message limit', async () => {
    const requests: PageRequest[] = [];
    await openExport('refunds', {}, async (request) => (requests.push(request), { data: [], has_more: false }), { pageSize: 1_000 });
    await openExport('balance_transactions', {}, async (request) => (requests.push(request), { data: [], has_more: false }), { pageSize: 1_000 });
    assert.deepEqual(requests.map((request) => request.page_size), [250, 1_000]);
  });
});
