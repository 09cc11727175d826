/**
 * The dashboard's Reports downloads under the API's export limit (D29 on
 * D21), against the whole system run as child processes sharing Redis, with
 * EXPORTS_PER_MERCHANT=1 for both doors: an export held open through one door
 * (a slow reader, tests/system/test/api/export-limits.test.ts) makes the
 * other door's next one answer 429 with Retry-After, the dashboard's with
 * its Reports page saying so in the reader's language; once it ends, the
 * next one runs. A second dashboard process lets a download run
 * EXPORT_MAX_SECONDS=2: it is cut off then, and its slot given back.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { merchantWithLargeExport, pollUntil, SlowReader, TestSystem, Visitor, type ApiClient } from '@gateway/testkit';

const PASSWORD = 'correct horse battery staple';
/** How long the second dashboard lets a download run. */
const SHORT_MAX_SECONDS = 2;
/** The refusal every door gives past the limit, as each language of the dashboard says it. */
const BUSY = {
  en: 'Too many exports are running at once for this account and mode. Try again shortly.',
  fr: 'Trop d’exports sont en cours en même temps pour ce compte et ce mode. Réessayez dans un instant.',
  ar: 'عدد عمليات التصدير الجارية في الوقت نفسه لهذا الحساب وهذا الوضع كبير جدًا. حاول مجددًا بعد قليل.',
} as const;

describe('Dashboard downloads and API exports share one limit (D29)', function () {
  this.timeout(300_000);
  let system: TestSystem;
  let api: ApiClient;
  let key: string;
  /** The signed-in person's session cookie, sent straight to the dashboard's processes. */
  let cookie: string;
  let readers: SlowReader[] = [];

  before(async () => {
    const oneExport = { EXPORTS_PER_MERCHANT: '1' };
    system = await TestSystem.start({ launch: 'child-process', readyTimeoutMs: 120_000, serviceEnv: { 'api-gateway': oneExport, dashboard: oneExport } });
    await system.startService('dashboard', 'dashboard-2', { EXPORT_MAX_SECONDS: String(SHORT_MAX_SECONDS) });
    const merchant = await merchantWithLargeExport(system);
    key = merchant.testKey;
    api = system.api(key);
    const visitor = new Visitor(system.baseUrl);
    const signedIn = await visitor.post('/dashboard/sign-in', { email: await system.dashboardUser(merchant.merchantId, 'viewer', PASSWORD), password: PASSWORD });
    assert.equal(signedIn.status, 303, signedIn.html);
    cookie = visitor.cookies;
  });
  after(async () => {
    for (const reader of readers) reader.close();
    await system?.shutdown();
  });
  afterEach(async () => {
    for (const reader of readers) reader.close();
    readers = [];
    await slotFree('the slot of the last test is given back');
  });

  /** A slow reader of the refunds export: through the API, or a Reports download of `dashboard`'s process. */
  async function slowReader(door: 'api' | 'dashboard' | 'dashboard-2'): Promise<SlowReader> {
    const reader =
      door === 'api'
        ? new SlowReader(system.portOf('api-gateway'), '/api/v1/gateway/exports/refunds.csv', { Authorization: `Bearer ${key}` })
        : new SlowReader(system.portOf(door), '/dashboard/reports/refunds.csv', { Cookie: cookie });
    readers.push(reader);
    assert.equal(await reader.status, 200, `the ${door} export runs`);
    return reader;
  }

  /** A Reports download of the payments CSV, read whole, in `language`. */
  async function download(language: 'en' | 'fr' | 'ar' = 'en'): Promise<{ status: number; headers: Headers; text: string }> {
    const res = await fetch(`http://127.0.0.1:${system.portOf('dashboard')}/dashboard/reports/sessions.csv`, { redirect: 'manual', headers: { cookie, 'accept-language': language } });
    return { status: res.status, headers: res.headers, text: await res.text() };
  }

  /** Until an export through the API runs again (the one slot given back), within a few seconds. */
  async function slotFree(what: string): Promise<void> {
    await pollUntil(async () => (await api.get('/gateway/exports/sessions.csv')).status === 200, 5_000, what, 100);
  }

  it('when an export through the API is held open, then a Reports download answers 429 with Retry-After and the page says that too many exports run, in English, French and Arabic; once the API export ends, the download runs', async () => {
    const held = await slowReader('api');
    for (const language of ['en', 'fr', 'ar'] as const) {
      const refused = await download(language);
      assert.equal(refused.status, 429, language);
      assert.equal(refused.headers.get('retry-after'), '5', language);
      assert.match(refused.headers.get('content-type') ?? '', /^text\/html/);
      assert.ok(refused.text.includes(BUSY[language]), `${language}: ${refused.text}`);
      assert.match(refused.text, new RegExp(`<html lang="${language}"`));
    }
    // The page still offers the downloads, to try again.
    assert.match((await download('en')).text, /href="\/dashboard\/reports\/sessions\.csv\?from=[\d-]+&amp;to=[\d-]+">Payments CSV</);
    held.close();
    await pollUntil(async () => (await download()).status === 200, 5_000, 'the download runs once the API export has ended', 100);
    const csv = await download();
    assert.equal(csv.status, 200);
    assert.equal(csv.headers.get('content-type'), 'text/csv; charset=utf-8');
    assert.ok(csv.text.startsWith('id,'), csv.text.slice(0, 100));
  });

  it('when a Reports download is held open, then an export through the API answers 429 with Retry-After, and so does another download; once the download ends, the API export runs', async () => {
    const held = await slowReader('dashboard');
    const refused = await api.get<{ type: string; detail: string }>('/gateway/exports/sessions.csv');
    assert.equal(refused.status, 429, refused.text);
    assert.equal(refused.headers.get('retry-after'), '5');
    assert.equal(refused.body.type, `https://${new URL(system.baseUrl).host}/errors/rate-limit-exceeded`);
    assert.equal(refused.body.detail, BUSY.en);
    assert.equal((await download()).status, 429, 'the dashboard counts its own downloads too');
    held.close();
    await slotFree('the API export runs once the download has ended');
  });

  it('when a Reports download runs past EXPORT_MAX_SECONDS, then it is cut off rather than ended, the log says why, and its slot is given back', async () => {
    const reader = await slowReader('dashboard-2');
    const started = Date.now();
    assert.equal((await api.get('/gateway/exports/sessions.csv')).status, 429, 'the download holds the slot');
    const stopped = () =>
      readFileSync(join(system.logDir, 'dashboard-2.log'), 'utf8')
        .split('\n')
        .find((entry) => entry.includes(reader.requestId) && entry.includes('"msg":"export stopped: it ran longer than EXPORT_MAX_SECONDS"'));
    await pollUntil(() => stopped() !== undefined, (SHORT_MAX_SECONDS + 10) * 1000, 'the log says why the download stopped', 100);
    const seconds = (Date.now() - started) / 1000;
    assert.ok(seconds >= SHORT_MAX_SECONDS - 1, `stopped after ${seconds} s`);
    assert.match(stopped() ?? '', new RegExp(`"maxSeconds":${SHORT_MAX_SECONDS}`));
    // Given back by the end of the export, not by its reader going: the reader has not let go yet.
    await slotFree('the slot of the download stopped is given back');
    const answer = await reader.drain();
    assert.ok(answer.includes('refund_id,session_id,amount'), 'the CSV had begun');
    assert.ok(!answer.endsWith('\r\n0\r\n\r\n'), 'the chunked answer was not ended as if complete');
  });
});
