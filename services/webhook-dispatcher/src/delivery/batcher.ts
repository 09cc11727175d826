/**
 * Groups work that arrives one item at a time into batches, one batch in
 * flight at a time: what arrives while a batch runs goes in the next one. At a
 * trickle every item runs alone and at once; under load the batches grow, so
 * one database statement serves hundreds of items.
 */
import { outsideTrace } from '@gateway/observability';

export class Batcher<I, O> {
  private waiting: { item: I; resolve: (out: O) => void; reject: (err: unknown) => void }[] = [];
  private running: Promise<void> | undefined;

  constructor(
    /** Runs one batch; answers one output per item, in order. */
    private readonly run: (items: I[]) => Promise<O[]>,
    private readonly maxBatch: number,
  ) {}

  /** Resolves with the item's output once the batch holding it has run. */
  add(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      // A batch serves many traces: its statement is none of the first item's.
      if (!this.running) this.running = outsideTrace(() => this.drain());
    });
  }

  /** Resolves when nothing is waiting or running. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async drain(): Promise<void> {
    try {
      while (this.waiting.length > 0) {
        const batch = this.waiting.splice(0, this.maxBatch);
        try {
          const outputs = await this.run(batch.map((w) => w.item));
          batch.forEach((w, i) => w.resolve(outputs[i] as O));
        } catch (err) {
          for (const w of batch) w.reject(err);
        }
      }
    } finally {
      this.running = undefined;
    }
  }
}
