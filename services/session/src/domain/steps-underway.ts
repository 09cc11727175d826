/**
 * The payment steps this process is waiting on the adapter for, by attempt.
 * The adapter answers a step and announces its outcome (payment.approved,
 * .authorized, .declined) both; when the event reaches the process that is
 * about to record the same outcome from the answer, it waits for that and
 * then has nothing to do, instead of reading the session to find so (or
 * racing the answer to record it). Anywhere else, or when the answer never
 * came, the event is applied as ever: it stays the way an outcome is
 * recorded when its answer is lost.
 */
export class StepsUnderway {
  private readonly steps = new Map<string, Promise<boolean>>();

  /**
   * Runs `step`, the payment step of `attemptId` in this process; `recorded`
   * tells from its result whether it recorded the attempt's outcome.
   */
  async run<T>(attemptId: string, step: () => Promise<T>, recorded: (result: T) => boolean): Promise<T> {
    let settle: (done: boolean) => void = () => undefined;
    this.steps.set(attemptId, new Promise<boolean>((resolve) => (settle = resolve)));
    let done = false;
    try {
      const result = await step();
      done = recorded(result);
      return result;
    } finally {
      this.steps.delete(attemptId);
      settle(done);
    }
  }

  /** Whether this process's own step of `attemptId` recorded its outcome, once it has ended; false when none is under way here. */
  async recorded(attemptId: string): Promise<boolean> {
    return (await this.steps.get(attemptId)) ?? false;
  }
}
