/**
 * Claiming due rows when any number of replicas sweep the same table: each
 * statement locks the rows it takes (FOR UPDATE) and skips those another
 * transaction holds (SKIP LOCKED), so no row is taken twice and no replica
 * waits for another. Three shapes, each built here from named parts:
 *
 * - a lease claim: the due rows are locked and given their lease (the time
 *   they are next due, a count of checks, an owner) in one statement, so a
 *   replica that dies holding them only delays them;
 * - locked rows: the due rows read FOR UPDATE SKIP LOCKED inside the caller's
 *   transaction, which changes them before it commits;
 * - a purge: a batch of the rows past retention deleted.
 *
 * A sweep takes one batch after another until one comes short (inBatches).
 */

/** A statement parameter, as `$1`. */
type Parameter = `$${number}`;

/** The rows due for some work, as one sweep takes them. */
export interface DueRows {
  /** What is read of each row. */
  readonly select: string;
  /** The table, with an alias when the conditions use one (`attempts a`), or a join. */
  readonly from: string;
  /** Which rows are due. */
  readonly where: string;
  /** The order they are taken in; without it, any. */
  readonly orderBy?: string;
  /** The parameter holding the most rows taken; without it, every due row. */
  readonly limit?: Parameter;
  /** Of a join, the alias of the only table whose rows are locked. */
  readonly lockOf?: string;
}

/** `SELECT ... FOR UPDATE [OF x] SKIP LOCKED`: the due rows no other transaction holds, locked until the caller's transaction ends. */
export function skipLocked(rows: DueRows): string {
  const order = rows.orderBy === undefined ? '' : ` ORDER BY ${rows.orderBy}`;
  const limit = rows.limit === undefined ? '' : ` LIMIT ${rows.limit}`;
  const of = rows.lockOf === undefined ? '' : ` OF ${rows.lockOf}`;
  return `SELECT ${rows.select} FROM ${rows.from} WHERE ${rows.where}${order}${limit} FOR UPDATE${of} SKIP LOCKED`;
}

/** A lease claim: which rows are due, and what taking one writes on it. */
export interface LeaseClaim {
  /** The table, with an alias when the other parts use one (`attempts a`). */
  readonly table: string;
  /** The column that names a row. */
  readonly key: string;
  readonly where: string;
  readonly orderBy?: string;
  readonly limit?: Parameter;
  /** The SET list: the lease (next check, checks, owner). */
  readonly set: string;
  /** What the claimed rows answer. */
  readonly returning: string;
  /**
   * A query over the claimed rows, named `claimed`, answered instead of them
   * (to join what the work needs besides); without it, `returning` is answered.
   */
  readonly then?: string;
}

/**
 * `WITH due AS (SELECT key ... FOR UPDATE SKIP LOCKED) UPDATE table SET lease
 * FROM due ... RETURNING ...`: takes the due rows no other replica holds and
 * writes their lease, in one statement.
 */
export function leaseClaim(claim: LeaseClaim): string {
  const words = claim.table.trim().split(/\s+/);
  const key = words.length > 1 ? `${words[words.length - 1]}.${claim.key}` : claim.key;
  const due = skipLocked({
    select: `${key} AS due_key`,
    from: claim.table,
    where: claim.where,
    ...(claim.orderBy !== undefined && { orderBy: claim.orderBy }),
    ...(claim.limit !== undefined && { limit: claim.limit }),
  });
  // The due rows' key gets a name of its own, so no column of the table is ambiguous in `returning`.
  const update = `UPDATE ${claim.table} SET ${claim.set} FROM due WHERE ${key} = due.due_key RETURNING ${claim.returning}`;
  return claim.then === undefined ? `WITH due AS (${due}) ${update}` : `WITH due AS (${due}), claimed AS (${update}) ${claim.then}`;
}

/** A purge: which rows are past keeping. */
export interface Purge {
  /** The table, with an alias when the conditions use one. */
  readonly table: string;
  /** The column, or columns, that name a row. */
  readonly key: string;
  readonly where: string;
  readonly orderBy?: string;
  readonly limit: Parameter;
  /** Conditions checked again on each row as it is deleted. */
  readonly recheck?: string;
}

/** `DELETE FROM table WHERE key IN (SELECT key ... LIMIT $n FOR UPDATE SKIP LOCKED)`: one batch of a purge, rows another replica holds skipped. */
export function purgeBatch(purge: Purge): string {
  const key = purge.key.includes(',') ? `(${purge.key})` : purge.key;
  const due = skipLocked({
    select: purge.key,
    from: purge.table,
    where: purge.where,
    ...(purge.orderBy !== undefined && { orderBy: purge.orderBy }),
    limit: purge.limit,
  });
  return `DELETE FROM ${purge.table} WHERE ${key} IN (${due})${purge.recheck === undefined ? '' : ` AND ${purge.recheck}`}`;
}

/** How long a sweep takes batches. */
export interface BatchLoop {
  /** The most rows one batch takes: a batch that takes fewer was the last one due. */
  readonly size: number;
  /** The most batches one run takes; without it, as many as are due. */
  readonly maxBatches?: number;
  /** Asked before each batch: true ends the run (the service is stopping). */
  readonly stopping?: () => boolean;
}

/**
 * Runs `batch` (which answers how many rows it took) again and again until
 * one comes short, `maxBatches` ran, or `stopping` says so; answers the sum
 * of what the batches answered.
 */
export async function inBatches(loop: BatchLoop, batch: () => Promise<number>): Promise<number> {
  let total = 0;
  for (let batches = 0; batches < (loop.maxBatches ?? Number.POSITIVE_INFINITY) && !loop.stopping?.(); batches += 1) {
    const taken = await batch();
    total += taken;
    if (taken < loop.size) break;
  }
  return total;
}
