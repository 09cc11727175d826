/**
 * The payment steps this process is waiting on the adapter for, by attempt.
 * The adapter answers a step and announces its outcome (payment.approved,
 * .authorized, .declined) both; when the event reaches the process that is
 * about to record the same outcome from the answer, it waits for that (a
 * moment: the answer was sent right after the event was committed) and then
 * has nothing to do, instead of reading the session to find so (or racing
 * the answer to record it). Anywhere else, when the answer does not come
 * within `waitMs` (the adapter stopped before answering), or when the step
 * ended without recording, the event is applied as ever: it stays the way an
 * outcome is recorded when its answer is lost.
 */
export class StepsUnderway {
  private readonly steps = new Map<string, Promise<boolean>>();

  constructor(private readonly waitMs = 2_000) {}

  /**
   * Runs `step`, the payment step of `attemptId` in this process; `recorded`
   * tells from its result whether it recorded the attempt's outcome.
   */
  async run<T>(attemptId: string, step: () => Promise<T>, recorded: (result: T) => boolean): Promise<T> {
    let settle: (done: boolean) => void = () => undefined;
    const own = new Promise<boolean>((resolve) => (settle = resolve));
    this.steps.set(attemptId, own);
    let done = false;
    try {
      const result = await step();
      done = recorded(result);
      return result;
    } finally {
      // A second step of the same attempt (a repeated 3-D Secure return) may have taken its place meanwhile.
      if (this.steps.get(attemptId) === own) this.steps.delete(attemptId);
      settle(done);
    }
  }

  /** Whether this process's own step of `attemptId` recorded its outcome, once it has ended; false when none is under way here or it does not end within the wait. */
  async recorded(attemptId: string): Promise<boolean> {
    const step = this.steps.get(attemptId);
    if (!step) return false;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), this.waitMs);
    });
    try {
      return await Promise.race([step, late]);
    } finally {
      clearTimeout(timer);
    }
  }
}
