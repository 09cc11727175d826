/**
 * How many CSV exports run at once and for how long (D29 on D21), against
 * the whole system run as child processes, two gateway replicas sharing
 * Redis: at most EXPORTS_PER_MERCHANT per merchant and mode, the next one
 * 429 with Retry-After; a slot is given back when its client goes, when the
 * export has run EXPORT_MAX_SECONDS (the stream stops, the log says why),
 * and, through its lease, when the replica holding it dies.
 *
 * A slow reader is a client that asks for an export and stops reading: the
 * export then waits on it once the sockets' buffers are full (a few MB on
 * loopback), so the merchant here has refunds of full metadata, about 11 MB
 * of CSV. The dashboard's downloads in the same slots:
 * tests/system/test/dashboard/export-limits.test.ts.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { merchantWithLargeExport, pollUntil, SlowReader, TestSystem, type ApiClient } from '@gateway/testkit';

/** D29's default, which this system keeps. */
const EXPORTS_PER_MERCHANT = 3;
/** How long the second replica lets an export run. */
const SHORT_MAX_SECONDS = 3;
const LEASE_SECONDS = 5;

type Problem = { type: string; status: number; detail: string };

describe('How many CSV exports run at once, and for how long (D29)', function () {
  this.timeout(300_000);
  let system: TestSystem;
  let merchant: { api: ApiClient; key: string; merchantId: string };
  let readers: SlowReader[] = [];

  before(async () => {
    system = await TestSystem.start({
      launch: 'child-process',
      readyTimeoutMs: 120_000,
      serviceEnv: { 'api-gateway': { EXPORT_SLOT_LEASE_SECONDS: String(LEASE_SECONDS) } },
    });
    await system.startService('api-gateway', 'api-gateway-2', { EXPORT_MAX_SECONDS: String(SHORT_MAX_SECONDS) });
    const made = await merchantWithLargeExport(system);
    merchant = { api: system.api(made.testKey), key: made.testKey, merchantId: made.merchantId };
  });
  after(async () => {
    for (const reader of readers) reader.close();
    await system?.shutdown();
  });
  afterEach(() => {
    for (const reader of readers) reader.close();
    readers = [];
  });

  /** A slow reader of the refunds export on `replica`, once its answer has begun (200) or been refused. */
  async function slowReader(replica = 'api-gateway', key = merchant.key): Promise<{ reader: SlowReader; status: number }> {
    const reader = new SlowReader(system.portOf(replica), '/api/v1/gateway/exports/refunds.csv', { Authorization: `Bearer ${key}` });
    readers.push(reader);
    return { reader, status: await reader.status };
  }

  /** `count` slow readers of the refunds export, one after the other, each answered 200. */
  async function holdExports(count: number, replica = 'api-gateway'): Promise<SlowReader[]> {
    const held: SlowReader[] = [];
    for (let i = 0; i < count; i += 1) {
      const { reader, status } = await slowReader(replica);
      assert.equal(status, 200, `slow reader ${i + 1} on ${replica}`);
      held.push(reader);
    }
    return held;
  }

  /** Until an export of the merchant answers 200 again (every slot given back), within `ms`. */
  async function slotFreeWithin(ms: number, what: string): Promise<void> {
    await pollUntil(async () => (await merchant.api.get('/gateway/exports/sessions.csv')).status === 200, ms, what, 200);
  }

  function gatewayLog(name: string): string {
    return readFileSync(join(system.logDir, `${name}.log`), 'utf8');
  }

  it('when three slow readers keep exports open (the review\'s reproduction), then a fourth export of that merchant and mode answers 429 with Retry-After on either replica; another merchant and the live mode still export', async () => {
    await holdExports(2, 'api-gateway');
    await holdExports(1, 'api-gateway-2');
    for (const replica of ['api-gateway', 'api-gateway-2']) {
      const refused = await fetch(`http://127.0.0.1:${system.portOf(replica)}/api/v1/gateway/exports/sessions.csv`, { headers: { authorization: `Bearer ${merchant.key}` } });
      assert.equal(refused.status, 429, replica);
      assert.equal(refused.headers.get('content-type'), 'application/problem+json; charset=utf-8');
      assert.ok(Number(refused.headers.get('retry-after')) >= 1, `Retry-After: ${refused.headers.get('retry-after')}`);
      const problem = (await refused.json()) as Problem;
      assert.equal(problem.type, `https://${new URL(system.baseUrl).host}/errors/rate-limit-exceeded`);
      assert.equal(problem.detail, 'Too many exports are running at once for this account and mode. Try again shortly.');
    }
    const other = await system.newMerchant();
    assert.equal((await system.api(other.testKey).get('/gateway/exports/sessions.csv')).status, 200, 'another merchant is not limited by this one');
    const live = system.api(await system.approveLive(merchant.merchantId, { terminal: true }));
    assert.equal((await live.get('/gateway/exports/sessions.csv')).status, 200, 'the live mode has slots of its own');
  });

  it('when a slow reader goes away, then its slot is given back at once and the next export runs', async () => {
    const [first] = await holdExports(EXPORTS_PER_MERCHANT);
    assert.equal((await merchant.api.get('/gateway/exports/sessions.csv')).status, 429);
    first?.close();
    await slotFreeWithin(3_000, 'the slot of the reader that went is given back');
    assert.match(gatewayLog('api-gateway'), /"msg":"export abandoned by the client"/);
  });

  it('when an export runs past EXPORT_MAX_SECONDS, then its stream stops, cut off rather than ended, the log says why, and its slot is given back', async () => {
    const { reader, status } = await slowReader('api-gateway-2');
    assert.equal(status, 200);
    const started = Date.now();
    const stopped = () =>
      gatewayLog('api-gateway-2')
        .split('\n')
        .find((entry) => entry.includes(reader.requestId) && entry.includes('"msg":"export stopped: it ran longer than EXPORT_MAX_SECONDS"'));
    await pollUntil(() => stopped() !== undefined, (SHORT_MAX_SECONDS + 10) * 1000, 'the log says why the export stopped', 100);
    const seconds = (Date.now() - started) / 1000;
    assert.ok(seconds >= SHORT_MAX_SECONDS - 1, `stopped after ${seconds} s`);
    const line = stopped() ?? '';
    assert.match(line, new RegExp(`"maxSeconds":${SHORT_MAX_SECONDS}`));
    // What the sockets held still arrives, then the connection ends without the chunked answer's last chunk.
    const answer = await reader.drain();
    assert.ok(answer.includes('refund_id,session_id,amount'), 'the CSV had begun');
    assert.ok(!answer.endsWith('\r\n0\r\n\r\n'), 'the chunked answer was not ended as if complete');
    assert.doesNotMatch(line, /whsec_|rrrrrrrrrr/, 'no row in the log');
    // Given back: the full number of exports runs again.
    await holdExports(EXPORTS_PER_MERCHANT);
  });

  it('when the replica holding a slot dies, then the slot is held no longer than its lease, never leaked', async () => {
    await holdExports(EXPORTS_PER_MERCHANT - 1, 'api-gateway');
    await holdExports(1, 'api-gateway-2');
    await system.killService('api-gateway-2');
    const killedAt = Date.now();
    // Its lease still runs: the dead replica's export counts for a moment.
    assert.equal((await merchant.api.get('/gateway/exports/sessions.csv')).status, 429);
    await slotFreeWithin((LEASE_SECONDS + 10) * 1000, 'the dead replica\'s slot is given back by its lease');
    assert.ok(Date.now() - killedAt < (LEASE_SECONDS + 10) * 1000);
  });
});
