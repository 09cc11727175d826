/** Mails marked sent (D20): those the mail server accepted meanwhile share one statement, and each sender is answered once it committed. */
import assert from 'node:assert/strict';
import type { Pool } from '@gateway/db';
import { MailQueueRepository } from '../../src/db/mail-queue.repository.js';

interface Statement {
  name: string;
  values: unknown[];
  done: () => void;
}

function scriptedPool() {
  const statements: Statement[] = [];
  const pool = {
    query: (config: { name: string; values: unknown[] }) => new Promise((resolve) => statements.push({ name: config.name, values: config.values, done: () => resolve({ rows: [], rowCount: 0 }) })),
  } as unknown as Pool;
  return { pool, statements };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('Mails marked sent (D20)', () => {
  it('when the server accepts several mails at once, then one statement marks them all, and each sender waits for it', async () => {
    const { pool, statements } = scriptedPool();
    const mails = new MailQueueRepository(pool, 10);
    let answered = 0;
    const marks = ['ml_1', 'ml_2', 'ml_3'].map((id) => mails.markSent(id, `<${id}@gateway.local>`).then(() => (answered += 1)));
    await tick();
    assert.equal(statements.length, 1);
    assert.equal(statements[0]?.name, 'mails-sent');
    assert.deepEqual(statements[0]?.values, [
      ['ml_1', 'ml_2', 'ml_3'],
      ['<ml_1@gateway.local>', '<ml_2@gateway.local>', '<ml_3@gateway.local>'],
    ]);
    await tick();
    assert.equal(answered, 0, 'no sender answered before its statement committed');
    statements[0]?.done();
    await Promise.all(marks);
    assert.equal(answered, 3);
  });

  it('when a mail is accepted while a statement runs, then it goes in the next one; a Message-ID is kept to 500 characters', async () => {
    const { pool, statements } = scriptedPool();
    const mails = new MailQueueRepository(pool, 10);
    const first = mails.markSent('ml_1', 'a');
    await tick();
    const second = mails.markSent('ml_2', 'x'.repeat(600));
    await tick();
    assert.equal(statements.length, 1, 'one statement at a time');
    statements[0]?.done();
    await first;
    await tick();
    assert.equal(statements.length, 2);
    assert.deepEqual(statements[1]?.values, [['ml_2'], ['x'.repeat(500)]]);
    statements[1]?.done();
    await second;
  });
});
