/** The events a refund is announced by (INTERFACE 6.2): refund.created and refund.updated. */
import type { RefundStatus } from '@gateway/contracts';
import { eventEnvelope } from '@gateway/messaging';
import type { SessionForEvent } from './deps.js';

/**
 * refund.created or refund.updated for `refund` of the merchant's session: its data is the
 * session as every event carries it (INTERFACE 6.2), as the session service
 * built it (`viewed.event`), with the refund (D10, D16); `unconfirmed` is the
 * acquirer's message when the acquirer did not confirm it.
 */
export function refundEvent(
  type: 'refund.created' | 'refund.updated',
  merchantId: string,
  viewed: SessionForEvent,
  refund: { id: string; amount: string; reason: string; metadata: Record<string, string>; status: RefundStatus; automated: boolean; created_at?: Date | undefined },
  unconfirmed: string | undefined,
  correlationId: string,
) {
  return eventEnvelope(
    type,
    {
      merchant_id: merchantId,
      webhook_url: viewed.session.webhook_url,
      session: {
        ...viewed.event,
        refund: {
          refund_id: refund.id,
          amount: refund.amount,
          automated_refund: refund.automated,
          reason: refund.reason,
          metadata: refund.metadata,
          status: refund.status,
          ...(refund.created_at && { created_at: refund.created_at.toISOString() }),
          ...(!refund.automated && unconfirmed && { epg_error_message: unconfirmed }),
        },
      },
      ...(viewed.receipt && { receipt: viewed.receipt }),
    },
    correlationId,
  );
}
