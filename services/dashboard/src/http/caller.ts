/** How a page calls the services that own what it shows and changes, for the person in view. */
import type { ApiContext, CommandReply, CommandRequest, CommandType, MerchantDetail } from '@gateway/contracts';
import type { RpcClient } from '@gateway/messaging';
import type { Viewer } from './door.js';

/**
 * Calls the owning service for the viewer: operator commands signed for them
 * (the service holds a user to their own merchant), API commands with the
 * merchant's API context, as the API would send them.
 */
export class Caller {
  constructor(
    private readonly rpc: RpcClient,
    private readonly viewer: Viewer,
  ) {}

  async command<C extends CommandType>(type: C, data: CommandRequest<C>, timeoutMs?: number): Promise<CommandReply<C>> {
    const reply = await this.rpc.call(type, data, { actor: this.viewer.actor, correlationId: this.viewer.requestId, ...(timeoutMs !== undefined && { timeoutMs }) });
    return reply.body;
  }

  /** An API command in `merchant`'s name, in the viewer's mode. */
  async api<C extends CommandType>(
    merchant: MerchantDetail,
    type: C,
    request: Omit<CommandRequest<C>, 'context'>,
    options: { timeoutMs?: number; idempotencyKey?: string } = {},
  ): Promise<CommandReply<C>> {
    const { timeoutMs, idempotencyKey } = options;
    const context: ApiContext = {
      merchant_id: merchant.merchant_id,
      livemode: this.viewer.mode === 'live',
      order_prefix: merchant.order_prefix,
      merchant_name: merchant.name,
      request_id: this.viewer.requestId,
      // A refund form carries a key made with the page: a double submit refunds once, as a retried API call would.
      ...(idempotencyKey !== undefined && { idempotency_key: idempotencyKey }),
    };
    const reply = await this.rpc.call(type, { ...request, context } as CommandRequest<C>, { correlationId: this.viewer.requestId, ...(timeoutMs !== undefined && { timeoutMs }) });
    return reply.body;
  }
}
