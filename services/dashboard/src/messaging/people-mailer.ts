/** The people's mails (D20), asked of the notifier, which writes and sends them. */
import type { RpcClient } from '@gateway/messaging';
import { describeError, type Logger } from '@gateway/observability';
import type { PeopleMailer } from '../domain/accounts.js';

/** A mailer that hands each mail to the notifier; a mail it could not take is logged, and the page says so where it may. */
export function notifierMailer(rpc: RpcClient, log: Logger): PeopleMailer {
  return {
    async send(type, request) {
      try {
        await rpc.call(type, request);
        return true;
      } catch (err) {
        log.warn({ err: describeError(err), type }, 'mail not handed to the notifier');
        return false;
      }
    },
  };
}
