import { strict as assert } from 'node:assert';
import { GroupCommit } from '../../src/group-commit.js';

/** A data exception as PostgreSQL reports one (SQLSTATE 22P02). */
function dataError(): Error {
  return Object.assign(new Error('invalid input syntax'), { code: '22P02' });
}

describe('group commit', () => {
  it('when items are asked for in one pass, then they go in one statement and each gets its own output', async () => {
    const batches: number[][] = [];
    const group = new GroupCommit<number, number>({ name: 'test', maxBatch: 100, run: async (items) => (batches.push([...items]), items.map((i) => i * 2)) });
    const outputs = await Promise.all([1, 2, 3, 4].map((i) => group.add(i)));
    assert.deepEqual(outputs, [2, 4, 6, 8]);
    assert.deepEqual(batches, [[1, 2, 3, 4]]);
  });

  it('when more items come than a statement takes, then they are split at maxBatch', async () => {
    const batches: number[][] = [];
    const group = new GroupCommit<number, number>({ name: 'test', maxBatch: 3, run: async (items) => (batches.push([...items]), [...items]) });
    await Promise.all([1, 2, 3, 4, 5].map((i) => group.add(i)));
    assert.deepEqual(batches, [[1, 2, 3], [4, 5]]);
  });

  it('when one statement may run at a time and items arrive while it runs, then they go together in the next one', async () => {
    const batches: number[][] = [];
    let running = 0;
    let most = 0;
    const group = new GroupCommit<number, number>({
      name: 'test',
      maxBatch: 100,
      inFlight: 1,
      run: async (items) => {
        running += 1;
        most = Math.max(most, running);
        batches.push([...items]);
        await new Promise((resolve) => setTimeout(resolve, 20));
        running -= 1;
        return [...items];
      },
    });
    const first = group.add(1);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const rest = [2, 3, 4].map((i) => group.add(i));
    await Promise.all([first, ...rest]);
    await group.idle();
    assert.deepEqual(batches, [[1], [2, 3, 4]]);
    assert.equal(most, 1);
  });

  it('when the database refuses a statement for one item’s data, then each item is tried alone and only that one fails', async () => {
    const group = new GroupCommit<number, number>({
      name: 'test',
      maxBatch: 100,
      run: async (items) => {
        if (items.includes(2)) throw dataError();
        return [...items];
      },
    });
    const results = await Promise.allSettled([1, 2, 3].map((i) => group.add(i)));
    assert.deepEqual(
      results.map((r) => r.status),
      ['fulfilled', 'rejected', 'fulfilled'],
    );
  });

  it('when a failed statement is tried item by item, then no more statements run at once than inFlight allows', async () => {
    let running = 0;
    let most = 0;
    const group = new GroupCommit<number, number>({
      name: 'test',
      maxBatch: 100,
      inFlight: 2,
      run: async (items) => {
        running += 1;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running -= 1;
        if (items.includes(4)) throw dataError();
        return [...items];
      },
    });
    const results = await Promise.allSettled([1, 2, 3, 4, 5, 6, 7, 8].map((i) => group.add(i)));
    assert.deepEqual(
      results.map((r) => r.status),
      ['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled', 'fulfilled', 'fulfilled'],
    );
    assert.equal(most, 2);
  });

  it('when a statement fails otherwise (the database away), then every item in it fails at once and later statements still run', async () => {
    let calls = 0;
    const group = new GroupCommit<number, number>({
      name: 'test',
      maxBatch: 100,
      run: async (items) => {
        calls += 1;
        if (calls === 1) throw Object.assign(new Error('Connection terminated unexpectedly'), { code: 'ECONNRESET' });
        return [...items];
      },
    });
    const failed = await Promise.allSettled([group.add(1), group.add(2)]);
    assert.deepEqual(
      failed.map((r) => r.status),
      ['rejected', 'rejected'],
    );
    assert.equal(calls, 1);
    assert.equal(await group.add(3), 3);
  });
});
