/**
 * Captures left under way past their first check (the answer was lost, or
 * the replica died before or after asking): payment.capture is sent again,
 * which the adapter answers from where the capture stands (or runs it, if it
 * never got it), and the outcome is recorded as any other.
 */
import { backoffSteps } from '@gateway/backoff';
import { describeError } from '@gateway/observability';
import { applyCaptureAnswer, captureAtAdapter } from './capture-outcome.js';
import type { SessionDeps } from './deps.js';

/** The first wait between two checks of one stuck capture, doubled after each check. */
const FIRST_CHECK_DELAY_SECONDS = 5;
const BATCH = 100;

/** One sweep; answers how many captures it asked about. */
export async function checkStuckCaptures(deps: SessionDeps, maxDelaySeconds: number): Promise<number> {
  const waits = backoffSteps({ first: FIRST_CHECK_DELAY_SECONDS, max: maxDelaySeconds });
  const stuck = await deps.holds.claimStuckCaptures(deps.clock(), BATCH, waits);
  await Promise.all(
    stuck.map(async (request) => {
      const correlationId = `check-capture-${request.session_id}`;
      try {
        const answer = await captureAtAdapter(deps, request, correlationId);
        await applyCaptureAnswer(deps, 'check', request, answer, correlationId);
        deps.log.info({ sessionId: request.session_id, outcome: answer.outcome }, 'stuck capture checked');
      } catch (err) {
        deps.log.warn({ err: describeError(err), sessionId: request.session_id }, 'stuck capture not checked; asked again later');
      }
    }),
  );
  return stuck.length;
}
