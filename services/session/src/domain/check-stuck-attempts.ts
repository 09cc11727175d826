/**
 * Attempts left PROCESSING long after any payment step could have answered:
 * the replica running the payment died, or every answer and event was lost.
 * Each is asked about at the acquirer adapter (payment.check) with backoff
 * until its outcome is known, and that outcome is recorded as any other, so
 * session.succeeded or session.failed follows once. The adapter finishes what
 * it has an order for through its own reconciliation with the acquirer, and
 * declines, for good, what it never sent.
 */
import { backoffSteps } from '@gateway/backoff';
import { describeError } from '@gateway/observability';
import type { SessionDeps } from './deps.js';
import { applyPaymentStep } from './payment-outcome.js';

const BATCH = 100;
/** The first wait between two checks of one attempt, doubled after each check. */
const FIRST_CHECK_DELAY_SECONDS = 5;

export interface StuckAttemptRules {
  /** How long after its start an attempt counts as stuck: longer than any payment step. */
  afterSeconds: number;
  /** The longest wait between two checks of one attempt. */
  maxDelaySeconds: number;
}

/** One sweep; answers how many attempts it asked about. */
export async function checkStuckAttempts(deps: SessionDeps, rules: StuckAttemptRules): Promise<number> {
  const now = deps.clock();
  // The query picks each attempt's wait by its own count of checks: it gets every step of the backoff.
  const waits = backoffSteps({ first: FIRST_CHECK_DELAY_SECONDS, max: rules.maxDelaySeconds });
  const stuck = await deps.attempts.claimStuck(now, new Date(now.getTime() - rules.afterSeconds * 1000), BATCH, waits);
  await Promise.all(
    stuck.map(async (attempt) => {
      const correlationId = `check-${attempt.attempt_id}`;
      try {
        const { body: step } = await deps.adapter.call('payment.check', { attempt }, { correlationId, timeoutMs: deps.adapterTimeoutMs });
        if (await applyPaymentStep(deps.outcomes, 'check', step, { correlationId, at: deps.clock() })) deps.afterCommit();
        deps.log.info({ attemptId: attempt.attempt_id, outcome: step.outcome }, 'stuck attempt checked');
      } catch (err) {
        deps.log.warn({ err: describeError(err), attemptId: attempt.attempt_id }, 'stuck attempt not checked; asked again later');
      }
    }),
  );
  return stuck.length;
}
