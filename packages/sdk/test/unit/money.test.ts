/**
 * The SDK's money calls (D21) with a scripted fetch: balance transactions and
 * refunds across pages, the balance, the daily report, and CSV downloads
 * streamed to a file (a refusal is the typed error and leaves no file, a
 * transfer cut off or stalled leaves none either).
 */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConnectionError, Gateway, GatewayError, ValidationError, type BalanceTransaction, type Refund } from '@gateway/sdk';

interface Sent {
  method: string;
  url: URL;
  accept: string | null;
}

const json = (status: number, body: unknown, type = 'application/json') => new Response(JSON.stringify(body), { status, headers: { 'content-type': type } });
const problem = (status: number, suffix: string, extra: Record<string, unknown> = {}) =>
  json(status, { type: `https://pay.example.tn/errors/${suffix}`, title: suffix, status, detail: 'x', ...extra }, 'application/problem+json');

/** A scripted answer: given the request's signal, as fetch ties a body to it. */
type Answer = (signal: AbortSignal | undefined) => Response;

/** A fetch answering from `answers` in turn and recording what each request asked. */
function scripted(answers: Answer[]) {
  const sent: Sent[] = [];
  const fake: typeof fetch = (input, init) => {
    sent.push({ method: init?.method ?? 'GET', url: new URL(String(input)), accept: new Headers(init?.headers).get('accept') });
    const next = answers.shift();
    if (!next) throw new Error('no more scripted answers');
    return Promise.resolve(next(init?.signal ?? undefined));
  };
  return { fake, sent };
}

const gatewayWith = (fake: typeof fetch, options: ConstructorParameters<typeof Gateway>[1] = {}) =>
  new Gateway('sk_test_x', { baseUrl: 'https://pay.example.tn', fetch: fake, initialRetryDelayMs: 1, ...options });

const txn = (id: string, type: string, amount: string): BalanceTransaction => ({
  id,
  type,
  session_id: 'ps_1',
  source: type === 'payment' ? 'ps_1' : 're_1',
  amount,
  fee: type === 'payment' ? '2.500' : '0.000',
  net: amount,
  currency: 'TND',
  created_at: '2026-11-30T09:00:00.000Z',
  available_on: '2026-12-02',
  livemode: false,
  payment_method: 'card',
});
const refund = (id: string): Refund => ({
  refund_id: id,
  session_id: 'ps_1',
  amount: '10.000',
  currency: 'TND',
  reason: 'r',
  metadata: {},
  automated_refund: true,
  status: 'succeeded',
  created_at: '2026-11-30T09:00:00.000Z',
  resolved_at: '2026-11-30T09:00:00.000Z',
});

/**
 * A CSV answer whose body is `chunks`, produced one per read; `beforeChunk(i)`
 * runs before chunk i is given. Aborting the request's signal errors the body,
 * as fetch does.
 */
function csv(chunks: string[], signal: AbortSignal | undefined, options: { beforeChunk?: (index: number) => Promise<void>; thenFail?: Error; headers?: Record<string, string> } = {}): Response {
  let index = 0;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      signal?.addEventListener('abort', () => controller.error(signal.reason));
    },
    async pull(controller) {
      if (index === chunks.length) {
        if (options.thenFail) controller.error(options.thenFail);
        else controller.close();
        return;
      }
      await options.beforeChunk?.(index);
      controller.enqueue(new TextEncoder().encode(chunks[index++]));
    },
  });
  return new Response(body, {
    status: 200,
    headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': 'attachment; filename="sessions-test-2026-11-30.csv"', 'x-request-id': 'req-1', ...options.headers },
  });
}

async function until(check: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('SDK money reports (D21)', () => {
  it('when balance transactions span pages, then iterating yields each once, newest first, every page keeping the filters and starting after the last id', async () => {
    const { fake, sent } = scripted([
      () => json(200, { data: [txn('txn_3', 'refund', '-10.000')], has_more: true }),
      () => json(200, { data: [txn('txn_2', 'refund', '-5.000')], has_more: true }),
      () => json(200, { data: [txn('txn_1', 'refund', '-1.000')], has_more: false }),
    ]);
    const seen: BalanceTransaction[] = [];
    for await (const item of gatewayWith(fake).balanceTransactions.list({ type: 'refund', limit: 1, 'created[gte]': '2026-11-01T00:00:00Z' })) seen.push(item);
    assert.deepEqual(seen.map((t) => [t.id, t.amount]), [['txn_3', '-10.000'], ['txn_2', '-5.000'], ['txn_1', '-1.000']]);
    assert.equal(typeof seen[0]?.amount, 'string', 'money stays a string');
    assert.deepEqual(
      sent.map((s) => `${s.method} ${s.url.pathname}?${s.url.searchParams.toString()}`),
      [
        'GET /api/v1/gateway/balance_transactions/?type=refund&limit=1&created%5Bgte%5D=2026-11-01T00%3A00%3A00Z',
        'GET /api/v1/gateway/balance_transactions/?type=refund&limit=1&created%5Bgte%5D=2026-11-01T00%3A00%3A00Z&starting_after=txn_3',
        'GET /api/v1/gateway/balance_transactions/?type=refund&limit=1&created%5Bgte%5D=2026-11-01T00%3A00%3A00Z&starting_after=txn_2',
      ],
    );
  });

  it('when page() is asked, then only the first page is read', async () => {
    const { fake, sent } = scripted([() => json(200, { data: [txn('txn_2', 'payment', '100.000')], has_more: true })]);
    const page = await gatewayWith(fake).balanceTransactions.list({ limit: 1 }).page();
    assert.deepEqual(page.data.map((t) => t.id), ['txn_2']);
    assert.equal(page.has_more, true);
    assert.equal(sent.length, 1);
  });

  it("when the account's refunds span pages, then the next page starts after the last refund_id; a session id alone still gives that session's refunds", async () => {
    const { fake, sent } = scripted([
      () => json(200, { data: [refund('re_2')], has_more: true }),
      () => json(200, { data: [refund('re_1')], has_more: false }),
      () => json(200, { data: [refund('re_9')] }),
    ]);
    const gateway = gatewayWith(fake);
    const seen: string[] = [];
    for await (const item of gateway.refunds.list({ status: 'succeeded', limit: 1 })) seen.push(item.refund_id);
    assert.deepEqual(seen, ['re_2', 're_1']);
    assert.equal(sent[0]?.url.pathname, '/api/v1/gateway/refunds/');
    assert.equal(sent[1]?.url.searchParams.get('starting_after'), 're_2');
    assert.equal(sent[1]?.url.searchParams.get('status'), 'succeeded');

    const ofSession = await gateway.refunds.list('ps_1');
    assert.deepEqual(ofSession.map((r) => r.refund_id), ['re_9']);
    assert.equal(sent[2]?.url.pathname, '/api/v1/gateway/sessions/ps_1/refunds/');
  });

  it('when the balance is retrieved, then it is GET /gateway/balance/ with amounts as strings', async () => {
    const { fake, sent } = scripted([() => json(200, { available: '97.500', pending: '-12.000', currency: 'TND', livemode: false })]);
    const balance = await gatewayWith(fake).balance.retrieve();
    assert.deepEqual(balance, { available: '97.500', pending: '-12.000', currency: 'TND', livemode: false });
    assert.equal(`${sent[0]?.method} ${sent[0]?.url.pathname}${sent[0]?.url.search}`, 'GET /api/v1/gateway/balance/');
  });

  it('when a daily report is asked, then from and to are its query; a bad range is a ValidationError naming the field', async () => {
    const day = { date: '2026-11-30', payments_count: 1, gross: '100.000', fees: '2.500', refunds: '0.000', net: '97.500' };
    const { fake, sent } = scripted([() => json(200, { data: [day], livemode: false }), () => problem(422, 'validation-error', { errors: [{ field: 'to', code: 'invalid', message: 'to must not be before from.' }] })]);
    const gateway = gatewayWith(fake);
    const report = await gateway.reports.daily({ from: '2026-11-30', to: '2026-11-30' });
    assert.deepEqual(report.data, [day]);
    assert.equal(`${sent[0]?.url.pathname}${sent[0]?.url.search}`, '/api/v1/gateway/reports/daily/?from=2026-11-30&to=2026-11-30');
    await assert.rejects(gateway.reports.daily({ from: '2026-11-30', to: '2026-11-01' }), (err: unknown) => err instanceof ValidationError && err.errors[0]?.field === 'to');
  });
});

describe('SDK CSV exports (D21)', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sdk-export-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('when an export is downloaded, then it asks the export path with the filters and writes the body to the file as it arrives, never holding it whole', async () => {
    const chunks = ['id,amount\r\n', 'ps_2,10.000\r\n', 'ps_1,"1,000.000"\r\n'];
    // Each chunk after the first is given only once the previous one is on disk: a client holding the body would wait forever.
    const onDisk = async (index: number) => {
      if (index === 0) return;
      const expected = chunks.slice(0, index).join('').length;
      await until(async () => {
        for (const name of await readdir(dir)) if ((await stat(join(dir, name))).size >= expected) return true;
        return false;
      }, 2_000, `chunk ${index - 1} written`);
    };
    const { fake, sent } = scripted([(signal) => csv(chunks, signal, { beforeChunk: onDisk })]);
    const target = join(dir, 'sessions.csv');
    const done = await gatewayWith(fake).exports.download('sessions', { status: 'SUCCEEDED', 'created[gte]': '2026-11-01T00:00:00Z' }, target);
    assert.equal(await readFile(target, 'utf8'), chunks.join(''));
    assert.deepEqual(done, { path: target, bytes: Buffer.byteLength(chunks.join('')), fileName: 'sessions-test-2026-11-30.csv', requestId: 'req-1' });
    assert.equal(`${sent[0]?.method} ${sent[0]?.url.pathname}?${sent[0]?.url.searchParams.toString()}`, 'GET /api/v1/gateway/exports/sessions.csv?status=SUCCEEDED&created%5Bgte%5D=2026-11-01T00%3A00%3A00Z');
    assert.match(sent[0]?.accept ?? '', /^text\/csv/);
    assert.deepEqual(await readdir(dir), ['sessions.csv'], 'no temporary file left');
  });

  it('when each kind is downloaded, then each asks its own file', async () => {
    const { fake, sent } = scripted([(s) => csv(['a\r\n'], s), (s) => csv(['a\r\n'], s)]);
    const gateway = gatewayWith(fake);
    await gateway.exports.download('refunds', { status: 'pending' }, join(dir, 'r.csv'));
    await gateway.exports.download('balance_transactions', { type: 'refund' }, join(dir, 't.csv'));
    assert.deepEqual(sent.map((s) => `${s.url.pathname}${s.url.search}`), ['/api/v1/gateway/exports/refunds.csv?status=pending', '/api/v1/gateway/exports/balance_transactions.csv?type=refund']);
  });

  it('when the filters are refused (422), then a ValidationError carries the problem and no file is created', async () => {
    const errors = [{ field: 'created[gte]', code: 'invalid_format', message: 'created[gte] must be an RFC 3339 date-time.' }];
    const { fake, sent } = scripted([() => problem(422, 'validation-error', { errors })]);
    await assert.rejects(gatewayWith(fake).exports.download('balance_transactions', { 'created[gte]': 'yesterday' }, join(dir, 'txns.csv')), (err: unknown) => {
      assert.ok(err instanceof ValidationError);
      assert.equal(err.status, 422);
      assert.deepEqual(err.errors, errors);
      assert.equal(err.problem?.type, 'https://pay.example.tn/errors/validation-error');
      return true;
    });
    assert.equal(sent.length, 1, 'a 422 is not retried');
    assert.deepEqual(await readdir(dir), []);
  });

  it('when the transfer is cut off mid-way, then a ConnectionError is thrown, the partial file is removed and a file already at the path is left as it was', async () => {
    const target = join(dir, 'sessions.csv');
    await writeFile(target, 'last month\r\n');
    const { fake } = scripted([(signal) => csv(['id\r\n', 'ps_2\r\n'], signal, { thenFail: new TypeError('terminated') })]);
    await assert.rejects(gatewayWith(fake).exports.download('sessions', {}, target), (err: unknown) => err instanceof ConnectionError && /cut off after \d+ bytes/.test(err.message));
    assert.deepEqual(await readdir(dir), ['sessions.csv']);
    assert.equal(await readFile(target, 'utf8'), 'last month\r\n');
  });

  it('when no data comes for the timeout once the body has started, then the download stops with a ConnectionError and no file', async () => {
    const { fake } = scripted([(signal) => csv(['id\r\n', 'never'], signal, { beforeChunk: (i) => (i === 1 ? new Promise(() => undefined) : Promise.resolve()) })]);
    const started = Date.now();
    await assert.rejects(gatewayWith(fake, { timeoutMs: 100 }).exports.download('sessions', {}, join(dir, 'slow.csv')), ConnectionError);
    assert.ok(Date.now() - started < 2_000);
    assert.deepEqual(await readdir(dir), []);
  });

  it('when the caller aborts mid-way, then the abort reason is thrown and no file is left', async () => {
    const abort = new AbortController();
    const { fake } = scripted([(signal) => csv(['id\r\n', 'ps_1\r\n'], signal, { beforeChunk: async (i) => void (i === 1 && abort.abort(new Error('user stopped'))) })]);
    await assert.rejects(gatewayWith(fake).exports.download('sessions', {}, join(dir, 'x.csv'), { signal: abort.signal }), /user stopped/);
    assert.deepEqual(await readdir(dir), []);
  });

  it('when the first answer is a 500, then the download is retried and succeeds', async () => {
    const { fake, sent } = scripted([() => problem(500, 'internal-error'), (s) => csv(['id\r\n'], s)]);
    await gatewayWith(fake).exports.download('sessions', {}, join(dir, 's.csv'));
    assert.equal(sent.length, 2);
    assert.equal(await readFile(join(dir, 's.csv'), 'utf8'), 'id\r\n');
  });

  it('when a 200 is not CSV (a proxy page), then a GatewayError says so and no file is written', async () => {
    const { fake } = scripted([() => new Response('<html>', { status: 200, headers: { 'content-type': 'text/html' } })]);
    await assert.rejects(gatewayWith(fake).exports.download('sessions', {}, join(dir, 's.csv')), (err: unknown) => err instanceof GatewayError && /not CSV/.test(err.message));
    assert.deepEqual(await readdir(dir), []);
  });

  it('when an export is asked through request(), then it is refused with a pointer to exports.download()', async () => {
    const { fake } = scripted([]);
    await assert.rejects(gatewayWith(fake).request('exportSessions', {}), (err: unknown) => err instanceof TypeError && /exports\.download/.test(err.message));
  });
});
