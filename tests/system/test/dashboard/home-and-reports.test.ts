/**
 * The dashboard's Home and Reports pages (D21) in Chromium against the real
 * services: after payments, declines and a refund, Home shows today's, 7
 * days' and 30 days' figures as the API's daily report counts them, and its
 * two charts, drawn on the server, with their text alternatives, with or
 * without JavaScript; Reports shows the daily report of a range and
 * downloads the three CSV exports of those dates (D21's columns, the right
 * rows), a reader included; a bad range is the API's validation problem on
 * the page; and both pages read in Arabic, right to left.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import Big from 'big.js';
import { addDays, tunisDate, tunisDayBounds } from '@gateway/contracts';
import type { Page } from 'playwright-core';
import { type ApiClient, launchBrowser, type Merchant, payOnPage, pollUntil, sessionRequest, signInToDashboard, type TestBrowser, TestSystem } from '@gateway/testkit';

const PASSWORD = 'correct horse battery staple';
/** D8: declined, and declined for insufficient funds; both leave the session open for another attempt. */
const DECLINED = '4000000000000002';
const NO_FUNDS = '4000000000009995';

type Day = { date: string; payments_count: number; gross: string; fees: string; refunds: string; net: string };
type Created = { id: string; checkout_url: string };

describe('Home and Reports (D21), in a browser', function () {
  this.timeout(180_000);
  let system: TestSystem;
  let browser: TestBrowser;
  let merchant: Merchant;
  let api: ApiClient;
  const ids = { paid: [] as string[], declined: [] as string[], refund: '' };
  let today: string;
  let expected: Day;

  before(async () => {
    system = await TestSystem.start({ readyTimeoutMs: 60_000 });
    browser = await launchBrowser();
    merchant = await system.newMerchant({ limits: { account: 10_000, create: 10_000, refund: 10_000 } });
    api = system.api(merchant.testKey);
    today = tunisDate(new Date());

    for (const [amount, card] of [
      ['100.000', '4242424242424242'],
      ['50.500', '4242424242424242'],
      ['30.000', DECLINED],
      ['12.000', NO_FUNDS],
    ] as const) {
      const created = await api.post<Created>('/gateway/sessions/', sessionRequest({ amount }));
      assert.equal(created.status, 201, created.text);
      await payOnPage(created.body.checkout_url, { card_number: card });
      (card.startsWith('4242') ? ids.paid : ids.declined).push(created.body.id);
    }
    const refund = await api.post<{ refund_id: string }>(`/gateway/sessions/${ids.paid[0]}/refund/`, { refund_type: 'PARTIAL', amount: '20.000', reason: 'Returned' });
    assert.equal(refund.status, 200, refund.text);
    ids.refund = refund.body.refund_id;
    // The ledger writes from the events: two payments and a refund.
    await pollUntil(async () => (await api.get<{ data: unknown[] }>('/gateway/balance_transactions/')).body.data.length >= 3, 15_000, 'three balance transactions');
    const report = await api.get<{ data: Day[] }>(`/gateway/reports/daily/?from=${today}&to=${today}`);
    assert.equal(report.status, 200, report.text);
    expected = report.body.data[0] as Day;
    assert.deepEqual([expected.payments_count, expected.gross, expected.refunds], [2, '150.500', '-20.000']);
    assert.equal(expected.net, new Big(expected.gross).minus(expected.fees).plus(expected.refunds).toFixed(3));
  });

  after(async () => {
    await browser?.close();
    await system?.shutdown();
  });

  /** Signs in (the sign-in form works without script), landing on Home. */
  async function signedIn(role: 'owner' | 'developer' | 'viewer', options: { javaScriptEnabled?: boolean } = {}): Promise<Page> {
    const page = await signInToDashboard(browser, system.baseUrl, await system.dashboardUser(merchant.merchantId, role, PASSWORD), PASSWORD, { acceptDownloads: true, ...options });
    await page.getByRole('heading', { name: 'Home', exact: true }).waitFor();
    return page;
  }

  const shown = async (page: Page, field: string) => (await page.locator(`[data-field="${field}"]`).textContent())?.trim();

  /** Home's figures and charts, as the API counts them: the same with or without script. */
  async function checkHome(page: Page): Promise<void> {
    assert.match(page.url(), /\/dashboard\/home$/);
    for (const period of ['today', '7d', '30d']) {
      assert.equal(await shown(page, `gross-${period}`), '150.500 TND', period);
      assert.equal(await shown(page, `net-${period}`), `${expected.net} TND`, period);
      assert.equal(await shown(page, `payments-${period}`), '2', period);
      assert.equal(await shown(page, `refunds-${period}`), '-20.000 TND', period);
      // Two attempts approved, two declined.
      assert.equal(await shown(page, `success-rate-${period}`), '50%', period);
    }

    // Daily volume: an image named by its <title>, described by its <desc>, one bar a day.
    const volume = page.getByRole('img', { name: 'Daily volume' });
    assert.equal(await volume.count(), 1);
    assert.equal(await page.locator('svg[data-chart="volume"] > title').textContent(), 'Daily volume');
    const volumeDesc = (await page.locator('svg[data-chart="volume"] > desc').textContent()) ?? '';
    assert.match(volumeDesc, new RegExp(`from ${addDays(today, -29)} to ${today}: 150\\.500 TND in all; the highest day, ${today}, took 150\\.500 TND`));
    assert.equal(await volume.getAttribute('aria-labelledby'), 'volume-title volume-desc');
    assert.equal(await page.locator('svg[data-chart="volume"] rect.bar').count(), 30);
    // The same figures in a table screen readers can walk: visually hidden, not removed.
    const volumeTable = page.getByRole('table', { name: 'Daily volume' });
    assert.equal(await volumeTable.locator('tbody tr').count(), 30);
    assert.equal(await volumeTable.getByRole('row', { name: today }).getByRole('cell').textContent(), '150.500 TND');
    assert.equal(await volumeTable.getByRole('row', { name: addDays(today, -1) }).getByRole('cell').textContent(), '0.000 TND');
    assert.equal(await volumeTable.isVisible(), true, 'in the accessibility tree (1 px, clipped)');
    const box = await volumeTable.locator('xpath=..').boundingBox();
    assert.ok(box && box.width <= 1 && box.height <= 1, `hidden from sight: ${JSON.stringify(box)}`);

    // Declines by reason: one bar per failure code.
    const declines = page.getByRole('img', { name: 'Declines by reason' });
    assert.equal(await declines.count(), 1);
    assert.match((await page.locator('svg[data-chart="declines"] > desc').textContent()) ?? '', /^2 declined payment attempts from .* to .*; the most frequent reason: (Card declined|Insufficient funds) \(1\)\.$/);
    assert.equal(await page.locator('svg[data-chart="declines"] rect.bar').count(), 2);
    const declinesTable = page.getByRole('table', { name: 'Declines by reason' });
    const rows = await declinesTable.locator('tbody tr').allTextContents();
    assert.deepEqual(rows.map((row) => row.trim()).sort(), ['Card declined1', 'Insufficient funds1']);
  }

  it('when a viewer signs in after payments, declines and a refund, then the dashboard opens on Home with the API\'s figures for today, 7 and 30 days, and both charts with their text alternatives', async () => {
    const page = await signedIn('viewer');
    const sections = page.getByRole('navigation', { name: 'Sections' });
    assert.equal(await sections.getByRole('link', { name: 'Home', exact: true }).getAttribute('aria-current'), 'page');
    assert.ok(await sections.getByRole('link', { name: 'Reports', exact: true }).isVisible());
    await checkHome(page);
    // Drawn on the server: the charts need no script, and take no inline style (the CSP refuses it).
    assert.equal(await page.locator('svg script, svg [style]').count(), 0);
  });

  it('when JavaScript is off, then Home shows the same figures and charts', async () => {
    const page = await signedIn('owner', { javaScriptEnabled: false });
    await checkHome(page);
    // And Reports' daily report too.
    await page.getByRole('link', { name: 'Reports', exact: true }).click();
    await page.getByRole('heading', { name: 'Reports' }).waitFor();
    assert.equal(await page.locator(`tr[data-date="${today}"] td`).first().textContent(), '2');
  });

  /** Clicks a download link and answers the file's name and text. */
  async function download(page: Page, link: string): Promise<{ name: string; text: string }> {
    const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: link, exact: true }).click()]);
    const path = await file.path();
    return { name: file.suggestedFilename(), text: await readFile(path, 'utf8') };
  }

  /** The header and the data lines of a CSV file (RFC 4180: CRLF after each record). */
  function linesOf(text: string): { header: string[]; rows: string[] } {
    assert.ok(text.endsWith('\r\n'), 'CRLF after each record');
    const [header = '', ...rows] = text.slice(0, -2).split('\r\n');
    return { header: header.split(','), rows };
  }

  it('when a viewer opens Reports, then the last 30 days\' daily report is shown with its totals, and the three CSVs download those dates\' rows with D21\'s header', async () => {
    const page = await signedIn('viewer');
    await page.getByRole('link', { name: 'Reports', exact: true }).click();
    await page.getByRole('heading', { name: 'Reports' }).waitFor();
    assert.equal(await page.getByLabel('From').inputValue(), addDays(today, -29));
    assert.equal(await page.getByLabel('To').inputValue(), today);
    const day = await page.locator(`tr[data-date="${today}"] td`).allTextContents();
    assert.deepEqual(day, ['2', expected.gross, expected.fees, expected.refunds, expected.net]);
    assert.equal(await page.locator('table.daily tbody tr').count(), 30);
    const total = await page.locator('tr[data-date="total"] td').allTextContents();
    assert.deepEqual(total, ['2', expected.gross, expected.fees, expected.refunds, expected.net]);

    // Each file is the API's export of the same instants (the same module, the same list commands), byte for byte.
    const { gte, lte } = tunisDayBounds(addDays(today, -29), today);
    const theApis = async (kind: string) => {
      const res = await api.get(`/gateway/exports/${kind}.csv?created%5Bgte%5D=${encodeURIComponent(gte)}&created%5Blte%5D=${encodeURIComponent(lte)}`);
      assert.equal(res.status, 200, res.text);
      return res.text;
    };

    const payments = await download(page, 'Payments CSV');
    assert.equal(payments.name, `sessions-test-${new Date().toISOString().slice(0, 10)}.csv`);
    assert.equal(payments.text, await theApis('sessions'));
    const sessions = linesOf(payments.text);
    assert.equal(sessions.header[0], 'id');
    assert.ok(['amount', 'status', 'merchant_reference', 'original.amount', 'created_at'].every((name) => sessions.header.includes(name)), sessions.header.join(','));
    assert.equal(sessions.rows.length, 4);
    for (const id of [...ids.paid, ...ids.declined]) assert.equal(sessions.rows.filter((row) => row.startsWith(`${id},`)).length, 1, id);

    const refundsFile = await download(page, 'Refunds CSV');
    assert.equal(refundsFile.text, await theApis('refunds'));
    const refunds = linesOf(refundsFile.text);
    assert.ok(refunds.header.includes('refund_id') && refunds.header.includes('amount'), refunds.header.join(','));
    assert.equal(refunds.rows.length, 1);
    assert.ok(refunds.rows[0]?.includes(ids.refund));

    const balance = await download(page, 'Balance transactions CSV');
    assert.match(balance.name, /^balance_transactions-test-\d{4}-\d{2}-\d{2}\.csv$/);
    assert.equal(balance.text, await theApis('balance_transactions'));
    const transactions = linesOf(balance.text);
    assert.deepEqual(transactions.header, ['id', 'type', 'session_id', 'source', 'amount', 'fee', 'net', 'currency', 'created_at', 'available_on', 'livemode', 'payment_method']);
    const column = (name: string) => transactions.header.indexOf(name);
    const cells = transactions.rows.map((row) => row.split(','));
    // A refund's negative amount starts with '-': written '-20.000 behind a quote (D21, formula injection).
    assert.deepEqual(cells.map((c) => [c[column('type')], c[column('amount')]]).sort(), [
      ['payment', '100.000'],
      ['payment', '50.500'],
      ['refund', "'-20.000"],
    ]);

    // Yesterday alone: the same files, with their header and no row.
    await page.getByLabel('From').fill(addDays(today, -1));
    await page.getByLabel('To').fill(addDays(today, -1));
    await page.getByRole('button', { name: 'Show' }).click();
    await page.waitForURL(/from=/);
    assert.equal(await page.locator('table.daily tbody tr').count(), 1);
    for (const link of ['Payments CSV', 'Refunds CSV', 'Balance transactions CSV']) {
      const { header, rows } = linesOf((await download(page, link)).text);
      assert.ok(header.length > 3, link);
      assert.deepEqual(rows, [], link);
    }
  });

  it('when the range is reversed or a date is not one, then the page shows the API\'s validation problem and offers no download', async () => {
    const page = await signedIn('developer');
    await page.getByRole('link', { name: 'Reports', exact: true }).click();
    await page.getByLabel('From').fill(today);
    await page.getByLabel('To').fill(addDays(today, -3));
    const [answer] = await Promise.all([page.waitForResponse((r) => r.url().includes('/dashboard/reports?')), page.getByRole('button', { name: 'Show' }).click()]);
    assert.equal(answer.status(), 422);
    await page.getByRole('alert').getByText('to must not be before from.').waitFor();
    assert.equal(await page.getByRole('link', { name: 'Payments CSV' }).count(), 0);
    assert.equal(await page.getByLabel('From').inputValue(), today, 'the form keeps what was asked');

    // A download link made by hand with a date that is not one: the Reports page with the problem, not a file, not a stack trace.
    const bad = await page.request.get(`${system.baseUrl}/dashboard/reports/sessions.csv?from=2026-02-30&to=${today}`);
    assert.equal(bad.status(), 422);
    assert.match(bad.headers()['content-type'] ?? '', /^text\/html/);
    const body = await bad.text();
    assert.ok(body.includes('from must be a valid date.'), body);
    assert.ok(!body.includes('    at '), 'no stack trace');
    const unknown = await page.request.get(`${system.baseUrl}/dashboard/reports/payments.csv`);
    assert.equal(unknown.status(), 404);
  });

  it('when the dashboard is in Arabic, then Home and Reports read right to left in Arabic, the charts are named in Arabic, and a download works', async () => {
    const page = await signedIn('viewer');
    await page.getByRole('link', { name: 'العربية' }).click();
    await page.getByRole('heading', { name: 'الرئيسية', exact: true }).waitFor();
    assert.deepEqual([await page.locator('html').getAttribute('lang'), await page.locator('html').getAttribute('dir')], ['ar', 'rtl']);
    const sections = page.getByRole('navigation', { name: 'الأقسام' });
    assert.ok(await sections.getByRole('link', { name: 'الرئيسية', exact: true }).isVisible());
    assert.ok(await sections.getByRole('link', { name: 'التقارير', exact: true }).isVisible());
    assert.equal(await sections.getByRole('link', { name: 'Home', exact: true }).count(), 0);
    assert.equal(await page.getByRole('img', { name: 'الحجم اليومي' }).count(), 1);
    assert.equal(await page.getByRole('img', { name: 'الرفض حسب السبب' }).count(), 1);
    assert.equal(await shown(page, 'gross-today'), '150.500 TND');
    // The charts keep time running left to right inside the mirrored page.
    assert.equal(await page.evaluate("getComputedStyle(document.querySelector('svg[data-chart=volume]')).direction"), 'ltr');

    await sections.getByRole('link', { name: 'التقارير', exact: true }).click();
    await page.getByRole('heading', { name: 'التقارير' }).waitFor();
    const { header, rows } = linesOf((await download(page, 'المدفوعات CSV')).text);
    assert.equal(header[0], 'id');
    assert.equal(rows.length, 4);
    await page.getByLabel('من').fill(today);
    await page.getByLabel('إلى').fill(addDays(today, -1));
    await page.getByRole('button', { name: 'عرض' }).click();
    await page.getByRole('alert').getByText('يجب ألّا يسبق to التاريخَ from.').waitFor();
  });
});
