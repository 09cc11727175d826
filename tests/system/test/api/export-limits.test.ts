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
 * of CSV.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { payOnPage, pollUntil, sessionRequest, TestSystem, type ApiClient } from '@gateway/testkit';

/** D29's default, which this system keeps. */
const EXPORTS_PER_MERCHANT = 3;
/** How long the second replica lets an export run. */
const SHORT_MAX_SECONDS = 3;
const LEASE_SECONDS = 5;
/**
 * Refunds of ~27 KB each: about 11 MB of CSV, well past what loopback's
 * socket buffers (about 4 MB) and the export's own read-ahead (64 rows, 2 MB)
 * take from a client that reads nothing.
 */
const REFUNDS = 400;
const SESSIONS = 5;

type Problem = { type: string; status: number; detail: string };

/** A client that asks for an export and, once the answer's head has come, reads no more. */
class SlowReader {
  readonly status: Promise<number>;
  readonly closed: Promise<void>;
  private readonly socket: Socket;
  private readonly received: Buffer[] = [];

  /** The request's X-Request-Id, which the gateway's log lines about it carry. */
  readonly requestId = randomUUID();

  constructor(port: number, key: string, path: string) {
    this.socket = connect(port, '127.0.0.1');
    this.socket.write(`GET /api/v1${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nX-Request-Id: ${this.requestId}\r\n\r\n`);
    this.status = new Promise((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        this.received.push(chunk);
        const head = Buffer.concat(this.received).toString('latin1');
        if (!head.includes('\r\n')) return;
        this.socket.off('data', onData);
        this.socket.pause();
        resolve(Number(head.split(' ')[1]));
      };
      this.socket.on('data', onData);
      this.socket.once('error', reject);
    });
    this.closed = new Promise((resolve) => this.socket.once('close', () => resolve()));
  }

  /** Reads what is left, until the server ends or cuts the connection; everything the answer held. */
  async drain(): Promise<string> {
    this.socket.on('data', (chunk: Buffer) => this.received.push(chunk));
    this.socket.resume();
    await this.closed;
    return Buffer.concat(this.received).toString('utf8');
  }

  /** The client goes away. */
  close(): void {
    this.socket.destroy();
  }
}

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
    merchant = await bigRefunds();
  });
  after(async () => {
    for (const reader of readers) reader.close();
    await system?.shutdown();
  });
  afterEach(() => {
    for (const reader of readers) reader.close();
    readers = [];
  });

  /** A merchant whose refunds export is several MB: SESSIONS paid sessions, REFUNDS partial refunds of full reason and metadata. */
  async function bigRefunds(): Promise<{ api: ApiClient; key: string; merchantId: string }> {
    const made = await system.newMerchant({ limits: { account: 10_000, create: 10_000, refund: 10_000 } });
    const api = system.api(made.testKey);
    const metadata = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`note-${String(i).padStart(2, '0')}`.padEnd(40, 'k'), 'v'.repeat(500)]));
    await Promise.all(
      Array.from({ length: SESSIONS }, async (_, s) => {
        const created = await api.post<{ id: string; checkout_url: string }>('/gateway/sessions/', sessionRequest({ amount: '100.000' }));
        assert.equal(created.status, 201, created.text);
        await payOnPage(created.body.checkout_url, { card_number: '4242424242424242' });
        for (let r = 0; r < REFUNDS / SESSIONS; r += 1) {
          const refund = await api.post(`/gateway/sessions/${created.body.id}/refund/`, { reason: `${s}-${r}-${'r'.repeat(490)}`, refund_type: 'PARTIAL', amount: '0.100', metadata });
          assert.equal(refund.status, 200, refund.text);
        }
      }),
    );
    return { api, key: made.testKey, merchantId: made.merchantId };
  }

  /** A slow reader of the refunds export on `replica`, once its answer has begun (200) or been refused. */
  async function slowReader(replica = 'api-gateway', key = merchant.key): Promise<{ reader: SlowReader; status: number }> {
    const reader = new SlowReader(system.portOf(replica), key, '/gateway/exports/refunds.csv');
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
      assert.match(problem.detail, /3 exports/);
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
