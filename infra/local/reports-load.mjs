// The money pages at scale (issue 29, D21): one merchant with 100,000 sessions
// over the last 365 days, and
//   - the dashboard's Home page (signed in, through the gateway's pass-through),
//   - the daily report of a whole year (366 days) through the API,
//   - the CSV export of every session through the API, streamed, timed from the
//     request to its last byte while the resident memory of every service is
//     sampled every 100 ms.
// Seeding through the API would take hours, so the first run writes straight
// into each owning service's tables, with each service's own role and seed
// module: the session service's sessions (about 72 % SUCCEEDED, 9 % FAILED with
// several decline codes), their attempts and attempt_days (services/session/
// test/support/seed-sessions.ts), then the ledger's payment entries of the
// SUCCEEDED ones with their daily and available totals (services/ledger/test/
// support/seed-ledger.ts). The Home and report cases are asked like the list
// cases (lists-load.mjs): closed loop, after a warm-up.
import { request } from 'node:http';
import os from 'node:os';
import { HttpClient, quantile } from './open-load.mjs';
import { benchShop, closedLoop, signIn } from './lists-load.mjs';
import { rssWindow } from './process-cpu.mjs';

/** The acquirer adapter's default pricing (DEFAULT_FEE_PERCENT, DEFAULT_FEE_FIXED): the bench merchants have none of their own. */
const PRICING = { percent: '1.5', fixed: '0.200' };
/** Declines as a shop sees them: card_declined most, then insufficient funds; the sandbox's codes (epg-sandbox action-codes.ts). */
const FAILURES = [
  ...Array(4).fill({ code: 'card_declined', message: 'The card was declined.' }),
  ...Array(3).fill({ code: 'insufficient_funds', message: 'The card has insufficient funds.' }),
  { code: 'expired_card', message: 'The card has expired.' },
  { code: 'incorrect_cvc', message: 'The security code is incorrect.' },
  { code: 'authentication_failed', message: '3-D Secure authentication failed.' },
  { code: 'processing_error', message: 'The acquirer could not process the payment.' },
];
/** The dashboard's Home page (D21). */
const HOME_PATH = '/dashboard/home';
/** Rows per page of an export (EXPORT_PAGE_SIZE): the export's progress is timed at each. */
const EXPORT_PAGE = 1_000;
const TUNIS = new Intl.DateTimeFormat('en-CA', { timeZone: 'Africa/Tunis', year: 'numeric', month: '2-digit', day: '2-digit' });

/**
 * A merchant for the scenarios, made now (over `rpc`); its sessions and ledger
 * are seeded on the first run. `sessionDbUrl`, `ledgerDbUrl`: each service's
 * database URL (its own role); `processes()`: the services' pids by name, whose
 * memory the export samples.
 */
export async function reportsBench({ rpc, sessionDbUrl, ledgerDbUrl, baseUrl, count = 100_000, processes }) {
  const { merchantId, key, login } = await benchShop(rpc, 'Bench Reports Shop', 'reports@bench.example');
  let seeded;

  async function seed() {
    const pg = (await import('pg')).default;
    const started = performance.now();
    const sessionDb = new pg.Client({ connectionString: sessionDbUrl, options: '-c search_path=session' });
    await sessionDb.connect();
    let statuses;
    let payments;
    try {
      const { seedSessions } = await import('../../services/session/dist/test/support/seed-sessions.js');
      ({ statuses } = await seedSessions(sessionDb, { merchantId, count, days: 365, failures: FAILURES, attemptPricing: PRICING, referencePrefix: 'report-' }));
      // What the ledger learnt from each session.succeeded: the amount, the approved attempt's fee, paid_at.
      const paid = await sessionDb.query(
        `SELECT s.id, s.amount::text AS amount, a.fee_amount::text AS fee, s.completed_at
           FROM session.sessions s JOIN session.attempts a ON a.session_id = s.id AND a.status = 'SUCCEEDED'
          WHERE s.merchant_id = $1 AND s.livemode = false AND s.status = 'SUCCEEDED'`,
        [merchantId],
      );
      payments = {
        sessionIds: paid.rows.map((row) => row.id),
        amounts: paid.rows.map((row) => row.amount),
        fees: paid.rows.map((row) => row.fee),
        paidAt: paid.rows.map((row) => row.completed_at),
      };
    } finally {
      await sessionDb.end();
    }
    const ledgerDb = new pg.Client({ connectionString: ledgerDbUrl, options: '-c search_path=ledger' });
    await ledgerDb.connect();
    try {
      const { seedLedger } = await import('../../services/ledger/dist/test/support/seed-ledger.js');
      const entries = await seedLedger(ledgerDb, { merchantId, payments });
      return { statuses, entries, seedMs: Math.round(performance.now() - started) };
    } finally {
      await ledgerDb.end();
    }
  }

  /** Seeds on the first call; answers what the run should report about it. */
  async function ready() {
    const first = !seeded;
    seeded ??= await seed();
    // The host's 1-minute load average as the run starts: these figures are comparable only on a quiet host.
    const load1 = Math.round(os.loadavg()[0] * 100) / 100;
    return first ? { seedMs: seeded.seedMs, statuses: seeded.statuses, ledgerEntries: seeded.entries, load1 } : { load1 };
  }

  /** A closed-loop case of `requests` requests by `concurrency` clients (closedLoop), with the figures at the top for the summary. */
  async function closed(query, { requests, concurrency, warmUp = 30 }) {
    const client = new HttpClient(baseUrl);
    try {
      const { figures } = await closedLoop(client, query, { requests, warmUp, concurrency });
      return { sessions: count, concurrency, ...figures };
    } finally {
      client.close();
    }
  }

  return {
    merchantId,
    /** The Home page (issue 29: p99 under 150 ms), signed in as a viewer. */
    async home({ requests = 300, concurrency = 1 } = {}) {
      const seededNow = await ready();
      const cookie = await signIn(baseUrl, login);
      return { ...seededNow, ...(await closed(() => ({ path: HOME_PATH, headers: { cookie }, ok: (text) => text.includes('<svg') }), { requests, concurrency })) };
    },
    /** The daily report of the 366 days up to today in Tunis (issue 29: p99 under 100 ms). */
    async dailyReport({ requests = 300, concurrency = 1 } = {}) {
      const seededNow = await ready();
      const to = TUNIS.format(new Date());
      const from = new Date(Date.parse(`${to}T00:00:00Z`) - 365 * 86_400_000).toISOString().slice(0, 10);
      const query = () => ({ path: `/api/v1/gateway/reports/daily/?from=${from}&to=${to}`, headers: { authorization: key }, ok: (text) => JSON.parse(text).data.length === 366 });
      return { ...seededNow, from, to, ...(await closed(query, { requests, concurrency })) };
    },
    /**
     * One export of every session (issue 29: under 10 s end to end, memory
     * flat): seconds to the last byte, rows, and each page's arrival; resident
     * memory of every service before (MiB), at its peak during the export, and
     * the growth. The summary's p50/p99 are those of the page gaps.
     */
    async exportSessions() {
      const seededNow = await ready();
      const named = processes();
      const before = rssWindow(named).stop();
      const window = rssWindow(named, 100);
      let transfer;
      let memory;
      try {
        transfer = await streamed(`${baseUrl}/api/v1/gateway/exports/sessions.csv`, { authorization: key });
      } finally {
        memory = window.stop();
      }
      const rss = {};
      for (const [name, { peakMiB, lastMiB }] of memory) {
        const beforeMiB = before.get(name)?.lastMiB;
        rss[name] = { beforeMiB, peakMiB, lastMiB, growthMiB: Math.round((peakMiB - beforeMiB) * 10) / 10 };
      }
      const { status, seconds, firstByteMs, rows, bytes, gaps, problem, broken } = transfer;
      const round = (v) => Math.round(v * 10) / 10;
      const sorted = [...(gaps ?? [])].sort((a, b) => a - b);
      return {
        ...seededNow,
        sessions: count,
        status,
        ...(problem && { problem }),
        ...(broken && { broken }),
        seconds,
        firstByteMs,
        rows,
        complete: rows === count,
        mib: Math.round((bytes / 2 ** 20) * 10) / 10,
        rowsPerSecond: Math.round(rows / seconds),
        // Milliseconds between one page's rows and the next page's (EXPORT_PAGE rows each) at the client.
        pages: { count: sorted.length, p50: round(quantile(sorted, 0.5)), p99: round(quantile(sorted, 0.99)), max: round(sorted.at(-1) ?? NaN), slowest: slowest(gaps ?? []) },
        p50: round(quantile(sorted, 0.5)),
        p99: round(quantile(sorted, 0.99)),
        rss,
      };
    },
  };
}

/** The `n` slowest page gaps with their page numbers (1 = the page after the first). */
function slowest(gaps, n = 5) {
  return gaps
    .map((ms, i) => ({ page: i + 1, ms: Math.round(ms) }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, n);
}

/**
 * GETs `url` and reads the body as it streams, keeping none of it: status,
 * milliseconds to the headers, seconds to the last byte, data rows (lines
 * after the header), bytes, and the gap before each further page of
 * EXPORT_PAGE rows arrived. A non-200 answer's body (a problem document) comes back whole.
 */
function streamed(url, headers) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(url, { headers, agent: false }, (res) => {
      const firstByteMs = Math.round(performance.now() - started);
      let lines = 0;
      let bytes = 0;
      let text = '';
      const gaps = [];
      let lastPageAt = performance.now();
      let nextPage = 1 + EXPORT_PAGE; // the header's line, then a page of rows
      res.on('data', (chunk) => {
        bytes += chunk.length;
        if (res.statusCode !== 200) {
          text += chunk.toString('utf8');
          return;
        }
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) {
          lines += 1;
          if (lines === nextPage) {
            const now = performance.now();
            if (lines > 1 + EXPORT_PAGE) gaps.push(now - lastPageAt);
            lastPageAt = now;
            nextPage += EXPORT_PAGE;
          }
        }
      });
      const answer = () => ({
        status: res.statusCode,
        firstByteMs,
        seconds: Math.round((performance.now() - started) / 10) / 100,
        rows: Math.max(0, lines - 1),
        bytes,
        gaps,
        ...(res.statusCode !== 200 && { problem: text.slice(0, 300) }),
      });
      res.on('end', () => resolve(answer()));
      // A failure after the headers breaks the transfer (csv-export.ts): reported with what had arrived.
      res.on('error', (err) => resolve({ ...answer(), broken: err.message }));
    });
    req.on('error', reject);
    req.end();
  });
}
