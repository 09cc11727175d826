/** What the refund use cases work with. */
import type { ApiContext, CommandReply, CommandRequest, SessionDetail } from '@gateway/contracts';
import type { Logger } from '@gateway/observability';
import type { RefundRepository } from '../db/refund.repository.js';

/** A session and its event payload, both as the session service builds them. */
export type SessionForEvent = CommandReply<'session.get_for_event'>;

export interface RefundDeps {
  refunds: RefundRepository;
  /** The session as its owner sees it: throws not-found when it is not the caller's. */
  getSession: (context: ApiContext, sessionId: string) => Promise<SessionDetail>;
  /** The same, with the payload the session's events carry, which the refund's events carry too. */
  getSessionForEvent: (context: ApiContext, sessionId: string) => Promise<SessionForEvent>;
  /** Has the session count a refund, or stop counting it, in amount_refunded (D16). */
  recordAtSession: (request: CommandRequest<'session.record_refund'>, correlationId: string) => Promise<unknown>;
  /** The acquirer step, at the adapter; throws when no answer came in time. */
  refundAtAcquirer: (request: CommandRequest<'payment.refund'>, correlationId: string) => Promise<CommandReply<'payment.refund'>>;
  log: Logger;
  /** Called after a commit that enqueued events. */
  afterCommit: () => void;
  /** How long a PENDING refund may go without an answer before it shows in the operations queue. */
  staleSeconds: number;
}
