/**
 * The time-driven half of delivery: every SWEEP_INTERVAL_SECONDS (node-cron), and sooner
 * when a retry this replica scheduled falls due first or a full endpoint has
 * room again, it claims the retries whose time has come and the attempts
 * nobody holds (their sender died, stopped, or had no room for them).
 * Claims skip the rows another replica holds, so any number of replicas sweep side by side.
 */
import { inBatches } from '@gateway/db';
import { describeError, type Logger } from '@gateway/observability';
import { every, type PeriodicJob } from '@gateway/runtime';
import type { DeliveryJob } from '../db/delivery-jobs.js';
import type { DeliveryRepository } from '../db/delivery.repository.js';

const CLAIM_BATCH = 500;

export class Sweeper {
  private periodic: PeriodicJob | undefined;
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Number.POSITIVE_INFINITY;
  /**
   * Times (epoch ms, rounded up to the 100 ms, so a burst of failures asks for
   * few distinct times) a sweep was asked for that have not come yet.
   */
  private wakes = new Set<number>();
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  constructor(
    private readonly deliveries: DeliveryRepository,
    private readonly dispatcher: { enqueue(jobs: readonly DeliveryJob[]): void; fullEndpoints(): string[] },
    private readonly intervalSeconds: number,
    private readonly log: Logger,
  ) {}

  /** Sweeps now, then every interval on node-cron. */
  start(): void {
    this.periodic = every(this.intervalSeconds, 'webhook-sweep', () => this.sweep(), this.log);
    void this.sweep();
  }

  /** Sweeps at `at` (epoch ms) too, besides every other time asked for and every interval. */
  wakeAt(at: number): void {
    if (this.stopped) return;
    this.wakes.add(Math.ceil(at / 100) * 100);
    this.arm();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.periodic?.stop();
    await this.running;
  }

  /** One sweep now; asked for during one, another follows it. */
  async sweep(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.run().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** Sets the timer for the earliest wake-up asked for. */
  private arm(): void {
    let at = Number.POSITIVE_INFINITY;
    for (const wake of this.wakes) at = Math.min(at, wake);
    if (at === Number.POSITIVE_INFINITY || (this.timer && at >= this.timerAt)) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = at;
    // A little after `at`: the database's clock decides what is due.
    this.timer = setTimeout(() => void this.wake(), Math.max(0, at - Date.now()) + 50);
    this.timer.unref();
  }

  private async wake(): Promise<void> {
    this.timer = undefined;
    this.timerAt = Number.POSITIVE_INFINITY;
    const now = Date.now();
    for (const wake of this.wakes) if (wake <= now) this.wakes.delete(wake);
    await this.sweep();
    if (!this.stopped) this.arm();
  }

  private async run(): Promise<void> {
    do {
      this.again = false;
      try {
        const claims = [
          (n: number) => this.deliveries.claimDueRetries(n),
          (n: number) => this.deliveries.reclaimAbandoned(n, this.dispatcher.fullEndpoints()),
        ];
        for (const claim of claims) {
          await inBatches({ size: CLAIM_BATCH, stopping: () => this.stopped }, async () => {
            const jobs = await claim(CLAIM_BATCH);
            this.dispatcher.enqueue(jobs);
            return jobs.length;
          });
        }
      } catch (err) {
        this.log.warn({ err: describeError(err) }, 'webhook sweep failed; the next one retries');
      }
    } while (this.again && !this.stopped);
  }
}
