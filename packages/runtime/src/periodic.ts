/**
 * Periodic jobs (sweeps) on node-cron. Each run must be safe beside the same
 * job on every other replica (claims of due rows that skip locked ones, packages/db, or an advisory
 * lock): the schedule only says how often a replica looks.
 */
import cron from 'node-cron';
import { describeError, type Logger } from '@gateway/observability';

/** The cron expression that fires every `seconds` (1-59 s, or whole minutes up to an hour). */
export function cronEvery(seconds: number): string {
  if (Number.isInteger(seconds) && seconds >= 1 && seconds < 60) return `*/${seconds} * * * * *`;
  if (Number.isInteger(seconds) && seconds % 60 === 0 && seconds >= 60 && seconds <= 3600) return `0 */${seconds / 60} * * * *`;
  throw new RangeError(`a sweep interval must be 1-59 seconds or whole minutes up to 60; got ${seconds}`);
}

export interface PeriodicJob {
  /** Runs the job now (between its scheduled runs), unless a run is under way. */
  runNow(): Promise<void>;
  /** No more runs; resolves when the run under way, if any, has finished. */
  stop(): Promise<void>;
}

/** Runs `job` every `seconds` on node-cron, never two runs at once in this process; a failed run is logged and the next one tries again. */
export function every(seconds: number, name: string, job: () => Promise<void>, log: Logger): PeriodicJob {
  let current: Promise<void> | undefined;
  const run = (): Promise<void> => {
    if (current) return current;
    current = job()
      .catch((err: unknown) => log.warn({ err: describeError(err), job: name }, 'periodic job failed; the next run tries again'))
      .finally(() => {
        current = undefined;
      });
    return current;
  };
  // The scheduler's own notes (a tick skipped while a run goes on, a tick missed under load)
  // go to the service's JSON log: runs never overlap here anyway.
  const logger = {
    info: (message: string) => log.debug({ job: name }, message),
    warn: (message: string) => log.debug({ job: name }, message),
    debug: (message: string | Error) => log.debug({ job: name }, String(message)),
    error: (message: string | Error, err?: Error) => log.warn({ job: name, err: describeError(err ?? message) }, 'scheduler error'),
  };
  const task = cron.schedule(cronEvery(seconds), () => run(), { name, noOverlap: true, logger });
  return {
    runNow: run,
    async stop() {
      await task.stop();
      await task.destroy();
      await current;
    },
  };
}
