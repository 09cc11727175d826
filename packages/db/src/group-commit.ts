/**
 * Group commit: work that arrives one item at a time (a create, a stored
 * event), written as batches, one statement and one commit for many items.
 * Inserting each alone costs PostgreSQL a round trip, a transaction and a
 * WAL flush per item; under load a batch pays them once.
 *
 * The items asked for within one pass of the event loop go together (a busy
 * service reads many messages off one socket read), up to `maxBatch` per
 * statement; at most `inFlight` statements run at once, and what arrives
 * meanwhile waits for the next. At a trickle every item runs alone and at
 * once. Each caller is answered only once the statement holding its item has
 * committed.
 *
 * A statement that fails fails every item in it; so a batch of more than one
 * that the database refuses for its data (SQLSTATE classes 22 and 23) or
 * picks as a deadlock's victim (40P01: a statement of many rows holds many
 * keys, which a single item never did) is tried again one item per
 * statement, and only the item at fault fails, as it would have alone. Any
 * other failure (the database unreachable, say) fails them all at once.
 *
 * Traced: a statement works for many requests' traces at once, so it runs in
 * a trace of its own, linked both ways to each item's wait, which is a span
 * in its caller's trace.
 */
import { openSpan, outsideTrace, SpanKind, type OpenSpan } from '@gateway/observability';

export interface GroupCommitOptions<I, O> {
  /** Names the spans: `<name> (group commit)` for an item's wait, `<name> batch` for the statement. */
  name: string;
  /** Runs one statement for `items`; answers one output per item, in order. */
  run: (items: readonly I[]) => Promise<readonly O[]>;
  /** The most items in one statement; more wait for the next. */
  maxBatch: number;
  /** The most statements running at once (one connection each); unbounded by default. */
  inFlight?: number;
}

interface Waiting<I, O> {
  item: I;
  resolve: (out: O) => void;
  reject: (err: unknown) => void;
  /** The item's wait for its statement, in its caller's trace; undefined when tracing is off or no trace led here. */
  span: OpenSpan | undefined;
}

export class GroupCommit<I, O> {
  private waiting: Waiting<I, O>[] = [];
  private scheduled = false;
  private running = 0;
  private readonly idleWaiters: (() => void)[] = [];

  constructor(private readonly options: GroupCommitOptions<I, O>) {}

  /** Resolves with the item's output once the statement holding it has committed. */
  add(item: I): Promise<O> {
    const span = openSpan(`${this.options.name} (group commit)`, { kind: SpanKind.INTERNAL, childOnly: true });
    const out = new Promise<O>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject, span });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          this.flush();
        });
      }
    });
    return span ? span.endWhenSettled(out) : out;
  }

  /** Resolves when nothing is waiting or running. */
  idle(): Promise<void> {
    if (this.running === 0 && this.waiting.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private flush(): void {
    const limit = this.options.inFlight ?? Number.POSITIVE_INFINITY;
    while (this.waiting.length > 0 && this.running < limit) {
      const batch = this.waiting.splice(0, this.options.maxBatch);
      this.running += 1;
      void this.runBatch(batch).finally(() => {
        this.running -= 1;
        this.flush();
        if (this.running === 0 && this.waiting.length === 0) for (const wake of this.idleWaiters.splice(0)) wake();
      });
    }
  }

  private async runBatch(batch: Waiting<I, O>[]): Promise<void> {
    try {
      const outputs = await this.traced(batch, () => this.options.run(batch.map((w) => w.item)));
      batch.forEach((w, i) => w.resolve(outputs[i] as O));
    } catch (err) {
      if (batch.length === 1 || !worthTryingEachAlone(err)) {
        for (const w of batch) w.reject(err);
        return;
      }
      // One item's fault must not fail the others: each alone, as it would have gone without
      // batching, and no more statements at once than a batch may take (the pool is shared).
      const alone = [...batch];
      const lanes = Math.max(1, Math.min(this.options.inFlight ?? 1, alone.length));
      await Promise.all(
        Array.from({ length: lanes }, async () => {
          for (let next = alone.shift(); next; next = alone.shift()) await this.runBatch([next]);
        }),
      );
    }
  }

  /** Runs a statement in a trace of its own, linked both ways to the wait of each item it carries. */
  private async traced<T>(batch: readonly Waiting<I, O>[], work: () => Promise<T>): Promise<T> {
    const waits = batch.flatMap((w) => (w.span ? [w.span] : []));
    const size = { 'db.operation.batch.size': batch.length };
    const statement = waits.length > 0 ? openSpan(`${this.options.name} batch`, { kind: SpanKind.INTERNAL, root: true, links: waits, attributes: size }) : undefined;
    if (!statement) return outsideTrace(work);
    for (const wait of waits) wait.link(statement).set('db.operation.batch.size', batch.length);
    return statement.endWhenSettled(statement.run(work));
  }
}

/**
 * Whether each item of the failed statement should be tried alone:
 * PostgreSQL refused it for the data it carried (a data exception, 22, or a
 * constraint, 23), or chose it as a deadlock's victim (40P01).
 */
function worthTryingEachAlone(err: unknown): boolean {
  const code = (err as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && (code.startsWith('22') || code.startsWith('23') || code === '40P01');
}
