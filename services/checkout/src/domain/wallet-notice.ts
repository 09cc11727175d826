/**
 * Flouci's notice about a payment (D26, WALLET.md: JSON `{payment_id,
 * status}` posted to the attempt's notice address). Anyone can post there,
 * so the notice is only a hint: it has the adapter verify the attempt's
 * payment with Flouci (verify_payment, the only proof), and what the notice
 * says is never acted on. Neither is the payment id it names: the attempt the
 * address names is the one verified.
 */
import type { CommandReply, CommandRequest } from '@gateway/contracts';
import { describeError, type Logger } from '@gateway/observability';

/** A notice as Flouci posts it; fields beyond these two are ignored. */
export interface WalletNotice {
  paymentId: string;
  /** As Flouci wrote it (SUCCESS, PENDING, EXPIRED, FAILURE...): logged, never trusted. */
  status: string;
}

export interface WalletNoticeDeps {
  verify: (request: CommandRequest<'payment.verify'>, timeoutMs: number) => Promise<CommandReply<'payment.verify'>>;
  /** How long the notice waits for the verification before it is answered all the same. */
  verifyTimeoutMs: number;
  log: Logger;
}

/** A word, short enough to log as it is: a status never carries anything else. */
const STATUS = /^[A-Za-z_]{1,32}$/;
const MAX_PAYMENT_ID_LENGTH = 256;

/** The notice `body` holds, or undefined when it is not one (not an object, a field missing, of another type or too long). */
export function readWalletNotice(body: unknown): WalletNotice | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const { payment_id: paymentId, status } = body as Record<string, unknown>;
  if (typeof paymentId !== 'string' || paymentId === '' || paymentId.length > MAX_PAYMENT_ID_LENGTH) return undefined;
  if (typeof status !== 'string' || !STATUS.test(status)) return undefined;
  return { paymentId, status };
}

/**
 * Has the adapter verify `attemptId`'s payment and waits for it: it records
 * any outcome itself. A verification that fails or takes too long is only
 * logged: the notice was a hint, and the adapter's sweep reconciles the
 * payment anyway.
 */
export async function takeWalletNotice(deps: WalletNoticeDeps, attemptId: string, notice: WalletNotice): Promise<void> {
  try {
    const step = await deps.verify({ attempt_id: attemptId }, deps.verifyTimeoutMs);
    deps.log.info({ attemptId, noticeStatus: notice.status, outcome: step.outcome }, 'wallet notice: the payment was verified');
  } catch (err) {
    deps.log.warn({ attemptId, noticeStatus: notice.status, err: describeError(err) }, 'wallet notice: the payment could not be verified now; the sweep will');
  }
}
