/**
 * The time-driven half of delivery: every SWEEP_INTERVAL_SECONDS, and sooner
 * when a retry this replica scheduled falls due first or a full endpoint has
 * room again, it claims the retries whose time has come and the attempts
 * nobody holds (their sender died, stopped, or had no room for them).
 * Claims use SKIP LOCKED, so any number of replicas sweep side by side.
 */
import { describeError, type Logger } from '@gateway/observability';
import type { DeliveryJob, DeliveryRepository } from '../db/delivery.repository.js';

const CLAIM_BATCH = 500;

export class Sweeper {
  private timer: NodeJS.Timeout | undefined;
  private nextAt = Number.POSITIVE_INFINITY;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  constructor(
    private readonly deliveries: DeliveryRepository,
    private readonly dispatcher: { enqueue(jobs: readonly DeliveryJob[]): void; fullEndpoints(): string[] },
    private readonly intervalMs: number,
    private readonly log: Logger,
  ) {}

  start(): void {
    this.schedule(Date.now());
  }

  /** Sweeps at `at` (epoch ms) if that is sooner than the next sweep planned. */
  wakeAt(at: number): void {
    if (!this.stopped && at < this.nextAt) this.schedule(at);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  /** One sweep now (also what the timer runs). */
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

  private schedule(at: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.nextAt = at;
    // A little after `at`: the database's clock decides what is due.
    this.timer = setTimeout(() => void this.tick(), Math.max(0, at - Date.now()) + 20);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    this.nextAt = Number.POSITIVE_INFINITY;
    await this.sweep();
    if (!this.stopped && this.nextAt === Number.POSITIVE_INFINITY) this.schedule(Date.now() + this.intervalMs);
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
          let jobs: DeliveryJob[];
          do {
            if (this.stopped) return;
            jobs = await claim(CLAIM_BATCH);
            this.dispatcher.enqueue(jobs);
          } while (jobs.length === CLAIM_BATCH);
        }
      } catch (err) {
        this.log.warn({ err: describeError(err) }, 'webhook sweep failed; the next one retries');
      }
    } while (this.again && !this.stopped);
  }
}
