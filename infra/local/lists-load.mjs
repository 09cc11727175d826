// The dashboard's Payments page at scale (issue 15, D14): one merchant with
// 100,000 sessions (seeded straight into the session schema by the session
// service's seed module, which a later page benchmark can reuse), and
// GET /api/v1/gateway/sessions/list/ through the gateway as the page asks it:
// the first page, a status filter, a date range, a status within a date
// range, a merchant_reference search, and a page 500 pages deep by cursor;
// then the same through the dashboard's Payments page itself (signed in, HTML,
// through the gateway's pass-through), and one payment's page.
// Each case is asked `requests` times by `concurrency` clients one after the
// other (a few dashboard users), after a warm-up; latency percentiles per case.
import { HttpClient, quantile } from './open-load.mjs';

const PAGE = 20;

/**
 * A merchant for the scenario, made now (over `rpc`); its sessions are seeded
 * on the first run. `sessionDbUrl`: the session service's database URL.
 */
export async function listsBench({ rpc, sessionDbUrl, baseUrl, count = 100_000 }) {
  const { merchantId, key, login } = await benchShop(rpc, 'Bench Lists Shop', 'lists@bench.example');
  let seeded;

  async function seed() {
    const { seedSessions, sessionAt } = await import('../../services/session/dist/test/support/seed-sessions.js');
    const pg = (await import('pg')).default;
    const db = new pg.Client({ connectionString: sessionDbUrl, options: '-c search_path=session' });
    await db.connect();
    try {
      const started = performance.now();
      const sessions = await seedSessions(db, { merchantId, count });
      const seedMs = Math.round(performance.now() - started);
      const deepCursor = await sessionAt(db, merchantId, false, 500 * PAGE - 1);
      return { sessions, seedMs, deepCursor };
    } finally {
      await db.end();
    }
  }

  /** A week of sessions somewhere in the seeded history (session n is about n spacings old). */
  const week = (sessions) => {
    const spanSessions = Math.round(count / 26);
    const newest = 1 + Math.floor(Math.random() * (count - spanSessions));
    const gte = sessions.createdAround(newest + spanSessions).toISOString();
    const lte = sessions.createdAround(newest).toISOString();
    return `created[gte]=${encodeURIComponent(gte)}&created[lte]=${encodeURIComponent(lte)}`;
  };

  return {
    merchantId,
    /** Seeds on the first call; then measures every case. */
    async run({ requests = 300, warmUp = 30, concurrency = 1 } = {}) {
      const first = !seeded;
      seeded ??= await seed();
      const { sessions, deepCursor } = seeded;
      const cookie = await signIn(baseUrl, login);
      const api = (query) => ({ path: `/api/v1/gateway/sessions/list/?limit=${PAGE}${query ? `&${query}` : ''}`, headers: { authorization: key }, ok: (text) => JSON.parse(text).data.length > 0 });
      const page = (path) => ({ path, headers: { cookie }, ok: (text) => text.includes('<tbody>') });
      /** The page's date fields: a week of days somewhere in the seeded history. */
      const days = () => {
        const [gte, lte] = week(sessions).split('&').map((part) => decodeURIComponent(part.split('=')[1]).slice(0, 10));
        return `from=${gte}&to=${lte}`;
      };
      const reference = () => encodeURIComponent(sessions.reference(1 + Math.floor(Math.random() * count)));
      const cases = {
        'first-page': () => api(''),
        'status': () => api('status=FAILED'),
        'date-range': () => api(week(sessions)),
        'status-and-date-range': () => api(`status=SUCCEEDED&${week(sessions)}`),
        'reference-search': () => api(`merchant_reference=${reference()}`),
        'deep-cursor-page-500': () => api(`starting_after=${deepCursor}`),
        'page:first-page': () => page('/dashboard/payments'),
        'page:status': () => page('/dashboard/payments?status=FAILED'),
        'page:status-and-date-range': () => page(`/dashboard/payments?status=SUCCEEDED&${days()}`),
        'page:reference-search': () => page(`/dashboard/payments?q=${reference()}`),
        'page:deep-cursor-page-500': () => page(`/dashboard/payments?starting_after=${deepCursor}`),
        'page:one-payment': () => ({ path: `/dashboard/payments/${deepCursor}`, headers: { cookie }, ok: (text) => text.includes('data-field="amount_refunded"') }),
      };
      const client = new HttpClient(baseUrl);
      const results = {};
      let total = 0;
      let spent = 0;
      try {
        for (const [name, query] of Object.entries(cases)) {
          const measured = await closedLoop(client, query, { requests, warmUp, concurrency });
          results[name] = measured.figures;
          total += measured.count;
          spent += measured.seconds;
        }
      } finally {
        client.close();
      }
      const worst = (key) => Math.max(...Object.values(results).map((r) => r[key]));
      return {
        sessions: count,
        ...(first && { seedMs: seeded.seedMs, statuses: sessions.statuses }),
        concurrency,
        // The worst case's figures, for the summary's spread; each case below.
        rps: Math.round(total / spent),
        p50: worst('p50'),
        p99: worst('p99'),
        cases: results,
      };
    },
  };
}

/** Signs `login` in to the dashboard through `baseUrl`; answers the session cookie ("name=value"). */
/**
 * A merchant for a bench, through operator commands: budgets no bench reaches,
 * its test key as an Authorization header, and a viewer of its dashboard, to
 * read the pages as a person would.
 */
export async function benchShop(rpc, name, email) {
  const { body } = await rpc.call('merchant.create', { name });
  const merchantId = body.merchant_id;
  await rpc.call('limits.set', { merchant_id: merchantId, mode: 'test', account: 100_000, create: 100_000, refund: 100_000 });
  const login = { email, password: 'bench-password-long-enough' };
  await rpc.call('user.create', { merchant_id: merchantId, email, role: 'viewer', password: login.password });
  return { merchantId, key: `Bearer ${body.test_secret_key}`, login };
}

export async function signIn(baseUrl, login) {
  const signedIn = await fetch(`${baseUrl}/dashboard/sign-in`, { method: 'POST', redirect: 'manual', body: new URLSearchParams(login) });
  const cookie = (signedIn.headers.getSetCookie()[0] ?? '').split(';')[0];
  if (signedIn.status !== 303 || !cookie) throw new Error(`the bench user could not sign in: ${signedIn.status}`);
  return cookie;
}

/**
 * One case, closed loop: `concurrency` clients each ask `query()` (a request
 * {path, headers, ok(text)}) one after the other, `warmUp` times in all
 * unmeasured, then `requests` times measured. A request fails unless its answer
 * is a 200 that `ok` accepts. Answers the latency figures (ms), the requests
 * measured and the seconds they took.
 */
export async function closedLoop(client, query, { requests, warmUp, concurrency }) {
  const ask = async () => {
    const request = query();
    const started = performance.now();
    const res = await client.exchange({ method: 'GET', path: request.path, headers: request.headers });
    const ms = performance.now() - started;
    // A page must come back with what the case asks for: every case asks for something that exists.
    const ok = res.status === 200 && request.ok(res.text);
    return { ms, ok, answer: ok ? undefined : `${res.status} ${res.text.slice(0, 300)}` };
  };
  const loop = async (n, latencies, failures) => {
    for (let i = 0; i < n; i += 1) {
      const { ms, ok, answer } = await ask();
      latencies?.push(ms);
      if (!ok) {
        failures.count += 1;
        failures.first ??= answer;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, () => loop(Math.ceil(warmUp / concurrency), undefined, { count: 0 })));
  const latencies = [];
  const failures = { count: 0 };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, () => loop(Math.ceil(requests / concurrency), latencies, failures)));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const round = (v) => Math.round(v * 10) / 10;
  const figures = {
    rps: Math.round(latencies.length / seconds),
    p50: round(quantile(latencies, 0.5)),
    p90: round(quantile(latencies, 0.9)),
    p99: round(quantile(latencies, 0.99)),
    max: round(latencies.at(-1) ?? NaN),
    failures: failures.count,
    ...(failures.first && { firstFailure: failures.first }),
  };
  return { figures, count: latencies.length, seconds };
}
