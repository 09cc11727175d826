/**
 * The SDK's money calls (D21) against the running system, ledger included:
 * balance transactions and refunds iterated across pages, the balance and a
 * daily report that agree with the transactions, and a CSV export streamed
 * to a file (a refused filter being a ValidationError that leaves no file).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Big from 'big.js';
import { payOnPage, pollUntil, TestSystem } from '@gateway/testkit';
import { Gateway, ValidationError, type BalanceTransaction, type CreateSessionRequest, type Refund } from '@gateway/sdk';

const buyer = (amount: string): CreateSessionRequest => ({
  amount,
  merchant_reference: `sdk-money-${randomUUID()}`,
  first_name: 'Amina',
  last_name: 'Ben Salah',
  email: 'amina@example.tn',
});

/** The Africa/Tunis date (YYYY-MM-DD) of an instant. */
const tunisDate = (at: Date | string) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Africa/Tunis', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(at));

const sum = (values: string[]) => values.reduce((total, value) => total.plus(value), new Big(0)).toFixed(3);

describe('@gateway/sdk money reports against the running system (D21)', function () {
  this.timeout(90_000);
  let system: TestSystem;
  let dir: string;

  before(async () => {
    system = await TestSystem.start();
    dir = await mkdtemp(join(tmpdir(), 'sdk-money-'));
  });
  after(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
    await system?.shutdown();
  });

  it('when two sessions are paid and one refunded twice, then the SDK pages through the transactions and refunds one at a time, and the balance, the daily report and sessions.csv agree', async () => {
    const merchant = await system.newMerchant({ limits: { account: 1000, create: 1000, refund: 1000 } });
    const pages: string[] = [];
    // Counts the pages each list asks for, passing every call through.
    const counting: typeof fetch = (input, init) => {
      pages.push(new URL(String(input)).pathname);
      return fetch(input, init);
    };
    const gateway = new Gateway(merchant.testKey, { baseUrl: system.baseUrl, initialRetryDelayMs: 50, fetch: counting });

    const sessions = [];
    for (const amount of ['100.000', '45.500']) {
      const session = await gateway.sessions.create(buyer(amount));
      assert.equal((await payOnPage(session.checkout_url ?? '', { card_number: '4242424242424242' })).status, 200);
      sessions.push(session);
    }
    const [first, second] = sessions;
    assert.ok(first && second);
    await gateway.sessions.refund(first.id, { reason: 'Returned', refund_type: 'PARTIAL', amount: '30.000' });
    await gateway.sessions.refund(first.id, { reason: 'Damaged', refund_type: 'PARTIAL', amount: '20.500' });

    // The ledger writes from the services' events, just after their answers.
    await pollUntil(async () => (await gateway.balanceTransactions.list({ limit: 100 }).page()).data.length >= 4, 15_000, 'four balance transactions');

    pages.length = 0;
    const transactions: BalanceTransaction[] = [];
    for await (const txn of gateway.balanceTransactions.list({ limit: 1 })) transactions.push(txn);
    assert.equal(pages.filter((path) => path.endsWith('/gateway/balance_transactions/')).length, 4, 'one page per transaction, limit 1');
    assert.equal(new Set(transactions.map((t) => t.id)).size, 4, 'each transaction once');
    assert.deepEqual(transactions.map((t) => t.created_at), [...transactions.map((t) => t.created_at)].sort().reverse(), 'newest first');
    assert.deepEqual(transactions.map((t) => t.type).sort(), ['payment', 'payment', 'refund', 'refund']);
    for (const t of transactions) {
      assert.match(t.amount, /^-?\d+\.\d{3}$/, 'money is a decimal string');
      assert.equal(new Big(t.amount).minus(t.fee).toFixed(3), t.net);
      assert.equal(t.currency, 'TND');
      assert.equal(t.livemode, false);
    }
    const paymentOf = (id: string) => transactions.find((t) => t.type === 'payment' && t.session_id === id);
    assert.equal(paymentOf(first.id)?.amount, '100.000');
    assert.equal(paymentOf(second.id)?.amount, '45.500');

    const refundTxns: BalanceTransaction[] = [];
    for await (const txn of gateway.balanceTransactions.list({ type: 'refund', limit: 1 })) refundTxns.push(txn);
    assert.deepEqual(refundTxns.map((t) => t.amount), ['-20.500', '-30.000']);
    assert.ok(refundTxns.every((t) => t.fee === '0.000' && t.session_id === first.id));

    const refunds: Refund[] = [];
    for await (const refund of gateway.refunds.list({ limit: 1 })) refunds.push(refund);
    assert.deepEqual(refunds.map((r) => [r.amount, r.status]), [['20.500', 'succeeded'], ['30.000', 'succeeded']]);
    assert.deepEqual(refundTxns.map((t) => t.source), refunds.map((r) => r.refund_id));
    const ofSecond: Refund[] = [];
    for await (const refund of gateway.refunds.list({ session_id: second.id })) ofSecond.push(refund);
    assert.deepEqual(ofSecond, []);

    const balance = await gateway.balance.retrieve();
    assert.equal(balance.currency, 'TND');
    assert.equal(balance.livemode, false);
    assert.equal(new Big(balance.available).plus(balance.pending).toFixed(3), sum(transactions.map((t) => t.net)), 'available + pending is every net');

    const from = tunisDate(transactions.at(-1)?.created_at ?? new Date());
    const to = tunisDate(new Date());
    const report = await gateway.reports.daily({ from, to });
    assert.equal(report.livemode, false);
    assert.equal(report.data[0]?.date, from);
    assert.equal(report.data.at(-1)?.date, to);
    assert.equal(report.data.reduce((count, day) => count + day.payments_count, 0), 2);
    assert.equal(sum(report.data.map((day) => day.gross)), '145.500');
    assert.equal(sum(report.data.map((day) => day.refunds)), '-50.500');
    assert.equal(sum(report.data.map((day) => day.fees)), sum(transactions.map((t) => t.fee)));
    assert.equal(sum(report.data.map((day) => day.net)), sum(transactions.map((t) => t.net)));

    const file = join(dir, 'sessions.csv');
    const download = await gateway.exports.download('sessions', {}, file);
    const rows = (await readFile(file, 'utf8')).split('\r\n').filter((line) => line.length > 0);
    assert.equal(download.bytes, (await readFile(file)).length);
    assert.match(download.fileName ?? '', /^sessions-test-\d{4}-\d{2}-\d{2}\.csv$/);
    const header = rows[0]?.split(',') ?? [];
    assert.equal(header[0], 'id');
    assert.ok(header.includes('amount') && header.includes('status'), rows[0]);
    assert.equal(rows.length, 3, 'a header and one row per session');
    assert.deepEqual(rows.slice(1).map((row) => row.split(',')[0]), [second.id, first.id], 'newest first');
    const amountAt = header.indexOf('amount');
    assert.deepEqual(rows.slice(1).map((row) => row.split(',')[amountAt]), ['45.500', '100.000'], 'money as decimal strings');

    const refused = join(dir, 'refused.csv');
    await assert.rejects(gateway.exports.download('sessions', { 'created[gte]': 'yesterday' }, refused), (err: unknown) => {
      assert.ok(err instanceof ValidationError, String(err));
      assert.equal(err.status, 422);
      assert.deepEqual(err.errors.map((e) => e.field), ['created[gte]']);
      return true;
    });
    assert.deepEqual((await readdir(dir)).sort(), ['sessions.csv'], 'a refused export writes no file');
  });
});
