/**
 * The correlation id of the work under way: one buyer's payment, one API
 * call. It is set where work enters a process (an HTTP request, a command, an
 * event) and read by every log line written meanwhile, and by every command
 * and event sent on, so one payment can be followed through every service.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const context = new AsyncLocalStorage<string>();

/** Runs `work` with `correlationId` as the current correlation id. */
export function withCorrelation<T>(correlationId: string, work: () => T): T {
  return context.run(correlationId, work);
}

/** The correlation id of the work under way, if any. */
export function currentCorrelationId(): string | undefined {
  return context.getStore();
}
