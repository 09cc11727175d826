/**
 * One delivery attempt as the dashboard shows it (D14): the record, the exact
 * body that was signed and sent, and the start of the merchant's answer, as
 * text it never interprets. Only the named merchant's attempts: any other id
 * is unknown, whoever's it is.
 */
import type { CommandReply, CommandRequest } from '@gateway/contracts';
import { AppError } from '@gateway/problem';
import type { HistoryDeps } from './deps.js';
import { toDelivery } from './delivery-view.js';

/** webhook.attempt: one attempt of the named merchant's, with the body sent and the answer's start. */
export async function getAttempt(deps: HistoryDeps, command: CommandRequest<'webhook.attempt'>): Promise<CommandReply<'webhook.attempt'>> {
  const row = await deps.history.attempt(command.merchant_id, command.delivery_id);
  if (!row) throw new AppError('not-found', `There is no webhook delivery ${command.delivery_id}.`);
  return { ...toDelivery(row), payload: row.payload, response_body: row.response_body };
}
