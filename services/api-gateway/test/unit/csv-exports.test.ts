/**
 * The CSV export routes (D21) on the gateway's own HTTP stack, with the
 * owning service played by a stub: what only a stub can make happen on cue,
 * a page failing after the first bytes were sent, and what the route sends
 * the list command. The whole system's exports: tests/system/test/api/exports.test.ts.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import type { ApiContext } from '@gateway/contracts';
import type { RpcClient } from '@gateway/messaging';
import { createLogger } from '@gateway/observability';
import { validationError } from '@gateway/problem';
import type { Authenticator } from '../../src/auth/authenticator.js';
import type { ApiCaller } from '../../src/db/merchant.repository.js';
import type { TestEventStreams } from '../../src/events/test-event-streams.js';
import { createApiListener } from '../../src/http/app.js';
import type { IdempotentCalls } from '../../src/idempotency/idempotent-call.js';
import type { TokenBuckets } from '../../src/limits/token-buckets.js';

const CALLER: ApiCaller = {
  keyId: 'key_1',
  merchantId: 'mer_00000000000000000001',
  livemode: true,
  orderPrefix: 'T',
  merchantName: 'Dar Zitouna',
  suspended: false,
  overrides: {},
  revokesAt: null,
};

type Call = { type: string; data: { context: ApiContext; query: Record<string, unknown>; page_size?: number } };

/** A session list item numbered `n`, its reference a secret the log must never show. */
const session = (n: number) => ({
  id: `ps_${String(n).padStart(20, '0')}`,
  merchant_reference: `secret-reference-${n}`,
  order_number: `T${n}`,
  order_id: '',
  amount: '10.000',
  currency: 'TND',
  original: { amount: '10.000', currency: 'TND', rate: '1.000000' },
  status: 'CREATED',
  livemode: true,
  buyer_first_name: 'Amina',
  buyer_last_name: 'Ben Salah',
  buyer_email: 'amina@example.tn',
  created_at: '2026-11-30T10:15:00.000Z',
});

/** The account's export slots, two of them, counted here: how many are held now. */
const slots = {
  perMerchant: 2,
  held: 0,
  async take() {
    if (slots.held >= slots.perMerchant) return undefined;
    slots.held += 1;
    let released = false;
    return {
      release: () => {
        if (!released) slots.held -= 1;
        released = true;
      },
    };
  },
};

describe('CSV export routes (D21)', () => {
  let server: Server;
  let base: string;
  let calls: Call[];
  let answer: (call: Call) => unknown | Promise<unknown>;
  const logged: string[] = [];

  before(async () => {
    const logs = new PassThrough();
    logs.on('data', (line: Buffer) => logged.push(line.toString('utf8')));
    const rpc = {
      call: async (type: string, data: Call['data']) => {
        const call = { type, data };
        calls.push(call);
        return { status: 200, body: await answer(call) };
      },
    };
    const listener = await createApiListener({
      auth: { authenticate: async (header: string | undefined) => (header === 'Bearer sk_live_good' ? CALLER : undefined) } as unknown as Authenticator,
      buckets: { take: async () => ({ allowed: true }) } as unknown as TokenBuckets,
      rpc: rpc as unknown as RpcClient,
      idempotency: {} as IdempotentCalls,
      log: createLogger({ service: 'api-gateway', destination: logs }),
      budgets: { test: { account: 10, create: 5, refund: 2 }, live: { account: 25, create: 10, refund: 5 } },
      authFailuresPerMinute: 20,
      acquirerCommandTimeoutMs: 30_000,
      rateLimitKeyPrefix: 'rl',
      errorsHost: 'gateway.example',
      publicBaseUrl: 'http://gateway.example',
      trustedProxyHops: 0,
      readiness: {},
      events: {} as TestEventStreams,
      eventStreamHeartbeatSeconds: 25,
      eventStreamAuthCheckSeconds: 5,
      exportPageSize: 2,
      exportIdleTimeoutMs: 60_000,
      exportMaxSeconds: 1,
      exportSlots: slots,
    });
    server = createServer(listener);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/gateway/exports`;
  });
  after(async () => {
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    calls = [];
    logged.length = 0;
  });
  afterEach(async () => {
    // Whatever way the export ended, its slot was given back.
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(slots.held, 0, 'a slot left taken');
  });

  const get = (path: string) => fetch(`${base}${path}`, { headers: { authorization: 'Bearer sk_live_good' } });

  it('when an export is asked, then the list command gets the query as its filters, the configured page size and the key\'s mode, and each next page starts after the last row', async () => {
    answer = ({ data }) => {
      const after = data.query['starting_after'];
      return after === undefined ? { data: [session(3), session(2)], has_more: true } : { data: [session(1)], has_more: false };
    };
    const res = await get('/sessions.csv?status=CREATED');
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-disposition'), `attachment; filename="sessions-live-${new Date().toISOString().slice(0, 10)}.csv"`);
    const lines = (await res.text()).split('\r\n');
    assert.equal(lines.length, 5);
    assert.deepEqual(
      calls.map(({ type, data }) => [type, data.query, data.page_size, data.context.livemode, data.context.merchant_id]),
      [
        ['session.list', { status: 'CREATED' }, 2, true, CALLER.merchantId],
        ['session.list', { status: 'CREATED', starting_after: session(2).id }, 2, true, CALLER.merchantId],
      ],
    );
    assert.ok(logged.some((line) => line.includes('"msg":"export written"') && line.includes('"rows":3')));
  });

  it('when the first page is refused, then the answer is its problem document and nothing of a CSV', async () => {
    answer = () => {
      throw validationError([{ field: 'created[gte]', code: 'invalid', message: 'created[gte] must be a valid date-time.' }]);
    };
    const res = await get('/refunds.csv?created[gte]=soon');
    assert.equal(res.status, 422);
    assert.equal(res.headers.get('content-type'), 'application/problem+json; charset=utf-8');
    assert.equal(res.headers.get('content-disposition'), null);
    const problem = (await res.json()) as { type: string; errors: { field: string }[] };
    assert.equal(problem.type, 'https://gateway.example/errors/validation-error');
    assert.deepEqual(
      problem.errors.map((e) => e.field),
      ['created[gte]'],
    );
    assert.deepEqual(
      calls.map((call) => call.type),
      ['refund.list'],
    );
  });

  it('when a page fails after the first bytes were sent, then the transfer is cut off, not ended, and the log says how far it got without a row\'s content', async () => {
    answer = ({ data }) => {
      if (data.query['starting_after'] !== undefined) throw new Error('broker connection lost during session.list');
      return { data: [session(3), session(2)], has_more: true };
    };
    const res = await get('/sessions.csv');
    assert.equal(res.status, 200);
    await assert.rejects(res.text(), TypeError, 'reading the body fails: the answer was cut off');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const line = logged.find((entry) => entry.includes('export cut off after its first bytes'));
    assert.ok(line, logged.join(''));
    assert.match(line, /"export":"sessions"/);
    assert.match(line, /"rows":2/);
    assert.match(line, /broker connection lost/);
    assert.doesNotMatch(line, /secret-reference/);
  });

  it('when the client goes away in the middle, then nothing more is read and the log says it was abandoned', async () => {
    let pages = 0;
    // An endless list, a page every 5 ms: the export is under way when the client goes.
    answer = async ({ data }) => {
      pages += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
      const after = String(data.query['starting_after'] ?? 'ps_99999999999999999999');
      const n = Number(after.slice(3)) - 1;
      return { data: [session(n), session(n - 1)], has_more: true };
    };
    const controller = new AbortController();
    const res = await fetch(`${base}/sessions.csv`, { headers: { authorization: 'Bearer sk_live_good' }, signal: controller.signal });
    assert.equal(res.status, 200);
    await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const read = pages;
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(pages, read, 'no page is read once the client is gone');
    assert.ok(logged.some((line) => line.includes('export abandoned by the client')), logged.join(''));
  });

  it('when the account runs as many exports as it may, then the next answers 429 with Retry-After before any page is read (D29)', async () => {
    slots.held = slots.perMerchant;
    try {
      const res = await get('/sessions.csv');
      assert.equal(res.status, 429);
      assert.equal(res.headers.get('retry-after'), '5');
      const problem = (await res.json()) as { type: string; detail: string };
      assert.equal(problem.type, 'https://gateway.example/errors/rate-limit-exceeded');
      assert.equal(problem.detail, 'Too many exports are running at once for this account and mode. Try again shortly.');
      assert.deepEqual(calls, []);
    } finally {
      slots.held = 0;
    }
  });

  it('when an export runs past its longest time, however fast its client reads, then it is cut off, no page more is read, and the log says why (D29)', async () => {
    let pages = 0;
    answer = async ({ data }) => {
      pages += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
      const after = String(data.query['starting_after'] ?? 'ps_99999999999999999999');
      const n = Number(after.slice(3)) - 1;
      return { data: [session(n), session(n - 1)], has_more: true };
    };
    const started = Date.now();
    const res = await get('/sessions.csv');
    assert.equal(res.status, 200);
    await assert.rejects(res.text(), TypeError, 'the answer was cut off, not ended');
    assert.ok(Date.now() - started >= 900, `cut off after ${Date.now() - started} ms`);
    // The page read ahead may still arrive; none is asked for after it.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const read = pages;
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(pages, read, 'no page is read once the export is stopped');
    const line = logged.find((entry) => entry.includes('"msg":"export stopped: it ran longer than EXPORT_MAX_SECONDS"'));
    assert.ok(line, logged.join(''));
    assert.match(line, /"maxSeconds":1/);
    assert.doesNotMatch(line, /secret-reference/);
  });
});
