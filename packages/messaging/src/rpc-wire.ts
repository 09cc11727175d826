/**
 * What a command and its reply carry on the broker, for both ends (rpc.ts
 * sends, command-server.ts answers).
 */
import type { WireProblem } from '@gateway/problem';

/** RabbitMQ's direct reply-to: the caller waits there, and only there is a reply sent. */
export const REPLY_TO = 'amq.rabbitmq.reply-to';

/** The header carrying the caller's deadline (epoch milliseconds): a command found after it is dropped unanswered. */
export const DEADLINE_HEADER = 'x-deadline';

/** A command's reply: its status and body, or the problem it failed with. */
export type Reply = { ok: true; status: number; body: unknown } | { ok: false; problem: WireProblem };
