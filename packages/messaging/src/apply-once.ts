/**
 * Apply once. A change can reach a service by more than one path: in the
 * reply of the service that made it (the adapter answering a payment) or in a
 * command that reports it (a refund's record at the session), and in the
 * event that announces the same change; and by each path more than once (the
 * broker redelivers). Every path runs the one function of the change. It is
 * keyed on what it changes — an attempt that is still PROCESSING, a row's
 * unique key (ON CONFLICT DO NOTHING), an event's id — so it changes the
 * service's state, and enqueues what that announces, only when the change is
 * not there yet, and answers what it applied, or undefined when it found it
 * applied. Whichever path comes first applies it; the event arriving first,
 * second or twice changes nothing more. No inbox, no memory of what this
 * replica did, no transaction beyond the change's own.
 */
import type { Envelope, EventData, EventType } from '@gateway/contracts';
import { changesApplied } from './metrics.js';

/** Where a change came from: its event, or the reply or command that carried it first, or a check that asked for it. */
export type ChangePath = 'event' | 'reply' | 'command' | 'check';

/** What a change knows of how it arrived. */
export interface ChangeContext {
  readonly correlationId: string;
  /** When the change happened: the event's occurred_at, or when its reply arrived. */
  readonly at: Date;
  /** The event that carried it, when it came as one. */
  readonly event?: Envelope;
}

/** A change `I` (what every path carries of it), announced by the events `E`, whose function answers `R` when it applied it. */
export interface Change<E extends EventType, I, R, C extends ChangeContext = ChangeContext> {
  /** Names the change in metrics and logs. */
  readonly name: string;
  /** The events that announce it: the service's event consumer applies it from these. */
  readonly events: readonly E[];
  /** The change an event carries; undefined when this one carries none (nothing to apply). */
  readonly fromEvent: (data: EventData<E>, context: ChangeContext) => I | undefined;
  /** Applies the change unless it is applied already (see above); what it applied, or undefined. */
  readonly apply: (change: I, context: C) => Promise<R | undefined>;
}

/** A change as an event consumer holds it, whatever its types. */
export interface AnyChange {
  readonly name: string;
  readonly events: readonly EventType[];
  readonly fromEvent: (data: never, context: ChangeContext) => unknown;
  readonly apply: (change: never, context: ChangeContext) => Promise<unknown>;
}

/** Applies `change` as it arrived by `path`: what it applied, or undefined when it was applied already. Counted by path and outcome. */
export async function applyOnce<I, R, C extends ChangeContext>(
  change: { readonly name: string; readonly apply: (change: I, context: C) => Promise<R | undefined> },
  path: ChangePath,
  input: I,
  context: C,
): Promise<R | undefined> {
  const applied = await change.apply(input, context);
  changesApplied.inc({ change: change.name, path, outcome: applied === undefined ? 'unchanged' : 'applied' });
  return applied;
}
