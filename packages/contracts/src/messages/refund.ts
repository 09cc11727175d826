/**
 * The refund service's messages: refunds, the manual-refund queue, and the refund.* events.
 */
import { Type, type TSchema } from '@sinclair/typebox';
import { Refund, RefundList, RefundPage, RefundResult } from '../api.js';
import { ApiContext, type CommandContract, DateTime, DecimalString, ExportPageSize, MerchantId, SessionRef } from './common.js';
import { SessionEventData } from './session.js';

/** A refund the acquirer could not confirm, waiting for an operator (D10). */
const ManualRefund = Type.Object({
  refund_id: Type.String(),
  session_id: Type.String(),
  merchant_id: MerchantId,
  livemode: Type.Boolean(),
  amount: DecimalString,
  reason: Type.String(),
  epg_error_message: Type.String(),
  created_at: DateTime,
});

/** The commands the refund service runs. */
export const refundCommands = {
  // refunds (D10): the API call, sent by the gateway, and the acquirer step, sent by the refund service
  'refund.create': {
    service: 'refund',
    lane: 'slow',
    request: Type.Object({ context: ApiContext, session_id: Type.String(), body: Type.Unknown() }),
    reply: RefundResult,
  },
  'refund.get': { service: 'refund', request: Type.Object({ context: ApiContext, refund_id: Type.String() }), reply: Refund },
  'refund.list_session': { service: 'refund', request: SessionRef, reply: RefundList },
  /** Every refund of the account, newest first, with RefundListQuery's filters: GET /gateway/refunds/ and refunds.csv (D21). */
  'refund.list': {
    service: 'refund',
    request: Type.Object({ context: ApiContext, query: Type.Record(Type.String(), Type.Unknown()), page_size: ExportPageSize }),
    reply: RefundPage,
  },
  // operator commands (D13)
  'refund.list_manual': {
    operator: true,
    readOnly: true,
    service: 'refund',
    request: Type.Object({}),
    reply: Type.Object({ data: Type.Array(ManualRefund) }),
  },
  'refund.resolve': {
    operator: true,
    service: 'refund',
    request: Type.Object({ refund_id: Type.String({ minLength: 1, maxLength: 64 }), as: Type.Union([Type.Literal('succeeded'), Type.Literal('failed')]) }),
    reply: Type.Object({ refund_id: Type.String(), status: Type.Union([Type.Literal('SUCCEEDED'), Type.Literal('FAILED')]) }),
  },
} as const satisfies Record<string, CommandContract>;

/** The refund.* events the refund service publishes. */
export const refundEvents = {
  'refund.created': SessionEventData,
  /** A refund an operator resolved (D16): the refund's final status, succeeded or failed. */
  'refund.updated': SessionEventData,
} as const satisfies Record<string, TSchema>;
