/** The refund service's command queue: the API's refund calls and reads, and the operator's queue. */
import type { CommandHandlers } from '@gateway/messaging';
import { createRefund } from '../domain/create-refund.js';
import type { RefundDeps } from '../domain/deps.js';
import { listManualRefunds, resolveManualRefund } from '../domain/manual-refunds.js';
import { getRefund, listRefunds, listSessionRefunds } from '../domain/read-refunds.js';

/** The command table: each command calls one use case. */
export function refundCommands(deps: RefundDeps): CommandHandlers {
  return {
    'refund.create': async (command, meta) => ({ body: await createRefund(deps, command.context, command.session_id, command.body, meta.envelope.id) }),
    'refund.get': async ({ context, refund_id }) => ({ body: await getRefund(deps, context, refund_id) }),
    'refund.list_session': async ({ context, session_id }) => ({ body: await listSessionRefunds(deps, context, session_id) }),
    'refund.list': async ({ context, query, page_size }) => ({ body: await listRefunds(deps, context, query, page_size) }),
    'refund.list_manual': async () => ({ body: await listManualRefunds(deps) }),
    'refund.resolve': async (command, meta) => {
      const { resolved, merchantId } = await resolveManualRefund(deps, command, meta.correlationId);
      return { body: resolved, merchantId };
    },
  };
}
