/** Mails written to the mail queue (D20, D29): those asked for together share one transaction, and each caller gets its own answer. */
import assert from 'node:assert/strict';
import type { Pool } from '@gateway/db';
import { MailQueueRepository, type NewMail } from '../../src/db/mail-queue.repository.js';

interface Sent {
  text: string;
  values: unknown[];
}

/** A pool whose one connection records what it is sent and writes the mails of the batch but those `refused` (a kind and source written already). */
function recordingPool(refused: (index: number) => boolean) {
  const sent: Sent[] = [];
  const client = {
    on: () => undefined,
    off: () => undefined,
    removeListener: () => undefined,
    release: () => undefined,
    query: async (query: string | { text: string; values: unknown[] }) => {
      const { text, values = [] } = typeof query === 'string' ? { text: query, values: [] } : query;
      sent.push({ text, values });
      if (!text.startsWith('WITH batch')) return { rows: [] };
      const ids = values[0] as string[];
      return { rows: ids.flatMap((id, i) => (refused(i) ? [] : [{ id, status: i === 2 ? 'dropped' : 'pending' }])) };
    },
  };
  const pool = { connect: async () => client } as unknown as Pool;
  return { pool, sent };
}

const mail = (n: number): NewMail => ({
  kind: 'payment_receipt',
  source: `ps_${n}`,
  merchantId: 'mer_1',
  livemode: true,
  language: 'fr',
  recipient: `buyer${n}@example.tn`,
  subject: 's',
  text: 't',
  html: 'h',
  headers: { 'Auto-Submitted': 'auto-generated' },
});

describe('Mails written together (D20, D29)', () => {
  it('when mails are asked for at once, then one transaction locks their addresses and writes them all, and each caller gets its own mail, or none when it was written already', async () => {
    const { pool, sent } = recordingPool((i) => i === 1);
    const mails = new MailQueueRepository(pool, 10);
    const at = new Date('2026-11-29T10:00:00Z');
    const answers = await Promise.all([0, 1, 2, 3].map((n) => mails.enqueue(mail(n), at)));
    assert.deepEqual(
      sent.map((s) => s.text.split(/\s/)[0]),
      ['BEGIN', 'SELECT', 'WITH', 'COMMIT'],
    );
    assert.deepEqual(sent[1]?.values, [['buyer0@example.tn', 'buyer1@example.tn', 'buyer2@example.tn', 'buyer3@example.tn']]);
    const [ids, kinds, sources] = sent[2]?.values as string[][];
    assert.deepEqual([kinds, sources], [['payment_receipt', 'payment_receipt', 'payment_receipt', 'payment_receipt'], ['ps_0', 'ps_1', 'ps_2', 'ps_3']]);
    assert.equal(new Set(ids).size, 4);
    assert.equal(sent[2]?.values[12], 10, 'the hour’s allowance');
    assert.deepEqual(answers, [{ id: ids?.[0], status: 'pending' }, undefined, { id: ids?.[2], status: 'dropped' }, { id: ids?.[3], status: 'pending' }]);
  });
});
