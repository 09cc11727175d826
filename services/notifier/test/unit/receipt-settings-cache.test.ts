/**
 * The receipts switch as receipts read it (D20, D29): kept for
 * RECEIPT_SETTINGS_CACHE_MS, and never served stale after this replica's own
 * set, even when a read that began before the set answers after it. The
 * statements are answered here in the order a test chooses.
 */
import assert from 'node:assert/strict';
import type { Pool } from '@gateway/db';
import { ReceiptSettingsRepository } from '../../src/db/receipt-settings.repository.js';
import { getReceiptSettings, setReceiptSettings } from '../../src/domain/receipt-settings.js';

interface Statement {
  sql: string;
  values: unknown[];
  answer: (enabled: boolean | undefined) => void;
  fail: (err: Error) => void;
}

/** A pool whose statements wait until the test answers them; the stored switches are the test's to say. */
function scriptedPool() {
  const statements: Statement[] = [];
  const pool = {
    query: (sql: string, values: unknown[]) =>
      new Promise((resolve, reject) => {
        statements.push({ sql, values, answer: (enabled) => resolve({ rows: enabled === undefined ? [] : [{ receipts_enabled: enabled }] }), fail: reject });
      }),
  } as unknown as Pool;
  const next = async (): Promise<Statement> => {
    for (let i = 0; i < 20 && statements.length === 0; i += 1) await new Promise((resolve) => setImmediate(resolve));
    const statement = statements.shift();
    assert.ok(statement, 'a statement was sent');
    return statement;
  };
  return { pool, statements, next };
}

const MERCHANT = 'mer_cache0000000000000000001';

describe('The receipts switch as receipts read it (D20, D29)', () => {
  it('when receipts of one merchant and mode come one after another, then the switch is read once and kept, per mode', async () => {
    const { pool, statements, next } = scriptedPool();
    const settings = new ReceiptSettingsRepository(pool, 60_000);
    const first = settings.receiptsEnabledForReceipt(MERCHANT, false);
    (await next()).answer(undefined);
    assert.equal(await first, false, 'off in test mode until set');
    for (let i = 0; i < 5; i += 1) assert.equal(await settings.receiptsEnabledForReceipt(MERCHANT, false), false);
    assert.equal(statements.length, 0, 'no statement while kept');
    const live = settings.receiptsEnabledForReceipt(MERCHANT, true);
    const read = await next();
    assert.deepEqual(read.values, [MERCHANT, true]);
    read.answer(undefined);
    assert.equal(await live, true, 'on in live mode until set');
  });

  it('when receipts of one merchant ask together while nothing is kept, then one statement answers them all', async () => {
    const { pool, statements, next } = scriptedPool();
    const settings = new ReceiptSettingsRepository(pool, 60_000);
    const asked = Array.from({ length: 16 }, () => settings.receiptsEnabledForReceipt(MERCHANT, true));
    (await next()).answer(false);
    assert.deepEqual(new Set(await Promise.all(asked)), new Set([false]));
    assert.equal(statements.length, 0);
  });

  it("when this replica sets the switch, then the next receipt goes by the new setting at once, and the Settings page reads it from the database", async () => {
    const { pool, statements, next } = scriptedPool();
    const settings = new ReceiptSettingsRepository(pool, 60_000);
    const kept = settings.receiptsEnabledForReceipt(MERCHANT, false);
    (await next()).answer(undefined);
    assert.equal(await kept, false);

    const set = setReceiptSettings(settings, { merchant_id: MERCHANT, mode: 'test', receipts_enabled: true }, new Date());
    const write = await next();
    assert.match(write.sql, /^INSERT INTO receipt_settings/);
    write.answer(true);
    assert.deepEqual(await set, { merchant_id: MERCHANT, mode: 'test', receipts_enabled: true });

    const after = settings.receiptsEnabledForReceipt(MERCHANT, false);
    (await next()).answer(true);
    assert.equal(await after, true, 'the stale "off" was not served');

    const page = getReceiptSettings(settings, { merchant_id: MERCHANT, mode: 'test' });
    (await next()).answer(true);
    assert.equal((await page).receipts_enabled, true);
    assert.equal(statements.length, 0);
  });

  it('when a read began before this replica set the switch and answers after it, then what it read is not kept', async () => {
    const { pool, next } = scriptedPool();
    const settings = new ReceiptSettingsRepository(pool, 60_000);
    const early = settings.receiptsEnabledForReceipt(MERCHANT, false);
    const earlyRead = await next();
    const set = settings.setReceiptsEnabled(MERCHANT, false, true, new Date());
    (await next()).answer(true);
    await set;
    // The read saw the row as it was before the set committed.
    earlyRead.answer(false);
    assert.equal(await early, false);

    const later = settings.receiptsEnabledForReceipt(MERCHANT, false);
    (await next()).answer(true);
    assert.equal(await later, true, 'the overtaken read was not kept');
  });

  it('when the set fails, then the switch is read again all the same (the write may have committed)', async () => {
    const { pool, next } = scriptedPool();
    const settings = new ReceiptSettingsRepository(pool, 60_000);
    const kept = settings.receiptsEnabledForReceipt(MERCHANT, false);
    (await next()).answer(undefined);
    await kept;
    const set = settings.setReceiptsEnabled(MERCHANT, false, true, new Date());
    (await next()).fail(new Error('connection lost'));
    await assert.rejects(set, /connection lost/);
    const after = settings.receiptsEnabledForReceipt(MERCHANT, false);
    (await next()).answer(true);
    assert.equal(await after, true);
  });

  it("when another replica changed the switch, then receipts go by it once what was kept lapses", async () => {
    const { pool, statements, next } = scriptedPool();
    const settings = new ReceiptSettingsRepository(pool, 30);
    const kept = settings.receiptsEnabledForReceipt(MERCHANT, false);
    (await next()).answer(undefined);
    assert.equal(await kept, false);
    assert.equal(await settings.receiptsEnabledForReceipt(MERCHANT, false), false);
    assert.equal(statements.length, 0);
    await new Promise((resolve) => setTimeout(resolve, 40));
    const lapsed = settings.receiptsEnabledForReceipt(MERCHANT, false);
    (await next()).answer(true);
    assert.equal(await lapsed, true);
  });

  it('when the cache is off (0 ms), then every receipt reads the switch', async () => {
    const { pool, next } = scriptedPool();
    const settings = new ReceiptSettingsRepository(pool, 0);
    for (const stored of [false, true]) {
      const read = settings.receiptsEnabledForReceipt(MERCHANT, true);
      (await next()).answer(stored);
      assert.equal(await read, stored);
    }
  });
});
