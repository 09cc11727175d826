/**
 * The messaging families: RPC latency on both ends, events published from the
 * outbox, events handled by consumers. Scrape-time gauges (outbox backlog,
 * queue depth) live beside the components that own the pool or channel.
 */
import { isCommandType, isEventType } from '@gateway/contracts';
import { catalogue, isProblemCode, type WireProblem } from '@gateway/problem';
import { counter, histogram } from '@gateway/observability';

export const rpcClientDuration = histogram(
  'gateway_rpc_client_duration_seconds',
  'Time from sending a command to its reply, by command type and outcome (ok, problem_4xx, problem_5xx, timeout, unroutable, error).',
  ['command', 'outcome'],
);

export const rpcServerDuration = histogram(
  'gateway_rpc_server_duration_seconds',
  'Time a command handler took, by command type and outcome (ok, problem_4xx, problem_5xx, error).',
  ['command', 'outcome'],
);

export const outboxPublished = counter('gateway_outbox_events_published_total', 'Events published from the outbox (broker-confirmed), by event type.', ['type']);

export const eventsHandled = counter(
  'gateway_consumer_events_handled_total',
  'Events a durable consumer took, by event type and outcome (handled: its change applied; duplicate: found applied; skipped: no change of this service; failed; malformed).',
  ['type', 'outcome'],
);

export const changesApplied = counter(
  'gateway_changes_total',
  'Changes applied once (apply-once.ts), by change, the path that carried it (event, reply, command, check) and outcome (applied, or unchanged: found applied by another path or an earlier delivery).',
  ['change', 'path', 'outcome'],
);

/** The outcome label of a problem reply: its status class, never its detail. */
export function problemOutcome(problem: WireProblem): 'problem_4xx' | 'problem_5xx' {
  return isProblemCode(problem.code) && catalogue[problem.code].status < 500 ? 'problem_4xx' : 'problem_5xx';
}

/** A command type as a label: only the contract's types, anything else `unknown`. */
export function commandLabel(type: string | undefined): string {
  return type && isCommandType(type) ? type : 'unknown';
}

export const operatorCommandsRefused = counter(
  'gateway_operator_commands_refused_total',
  'Operator commands refused before any handler ran (D17), by command type and reason (missing, malformed, unknown-key, bad-signature, expired, wrong-command, altered, replayed).',
  ['command', 'reason'],
);

export const messagesRefused = counter(
  'gateway_messages_refused_total',
  'Commands and events refused because their broker user (AMQP user_id) may not send them (D17), by kind (command, event, broadcast) and type.',
  ['kind', 'type'],
);

export const commandsOnOtherLane = counter(
  'gateway_rpc_commands_on_other_lane_total',
  "Commands a service took from the queue of another lane than their own (contracts' commandLane) and ran all the same: sent by a caller of an older version, during a rolling deploy; by command type and the queue's lane.",
  ['command', 'lane'],
);

/** An event type as a label: only the contract's types, anything else `unknown`. */
export function eventLabel(type: string | undefined): string {
  return type && isEventType(type) ? type : 'unknown';
}
