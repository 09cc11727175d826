/**
 * The payment session's states, transitions and events in one place
 * (INTERFACE 3.1 with DECISIONS D2 and D22). The use cases ask these rules
 * what may happen; docs/session-states.md shows the same table, and a unit
 * test keeps the two equal.
 */
import type { SessionStatus } from '@gateway/contracts';

/** Statuses from which a session can still be paid, canceled or expire by its lifetime. */
export const OPEN_STATUSES: readonly SessionStatus[] = ['CREATED', 'PENDING'];

/** INTERFACE 3.1 rule 2: nothing leaves these. */
export const TERMINAL_STATUSES: readonly SessionStatus[] = ['SUCCEEDED', 'FAILED', 'EXPIRED', 'CANCELED'];

export interface Transition {
  readonly from: SessionStatus | '(new)';
  readonly trigger: string;
  readonly condition: string;
  readonly to: SessionStatus;
  readonly also: string;
}

export const TRANSITIONS: readonly Transition[] = [
  { from: '(new)', trigger: 'POST /gateway/sessions/', condition: 'new merchant_reference', to: 'CREATED', also: 'Response 201 with checkout_url.' },
  { from: 'CREATED', trigger: 'payment attempt starts', condition: '', to: 'PROCESSING', also: '' },
  { from: 'PENDING', trigger: 'buyer retries', condition: '', to: 'PROCESSING', also: '' },
  { from: 'PROCESSING', trigger: 'attempt approved', condition: 'capture_method automatic', to: 'SUCCEEDED', also: 'Event session.succeeded.' },
  { from: 'PROCESSING', trigger: 'attempt approved', condition: 'capture_method manual', to: 'AUTHORIZED', also: 'The amount is held (amount_authorized). Event session.authorized.' },
  { from: 'PROCESSING', trigger: 'attempt declined', condition: 'attempts remain', to: 'PENDING', also: 'Event session.failed with can_retry.' },
  { from: 'PROCESSING', trigger: 'attempt declined', condition: 'attempts exhausted', to: 'FAILED', also: 'Event session.failed.' },
  { from: 'CREATED', trigger: 'cancel', condition: '', to: 'CANCELED', also: 'Event session.canceled.' },
  { from: 'PENDING', trigger: 'cancel', condition: '', to: 'CANCELED', also: 'Event session.canceled.' },
  { from: 'CREATED', trigger: 'session lifetime elapsed', condition: '', to: 'EXPIRED', also: 'Event session.expired.' },
  { from: 'PENDING', trigger: 'session lifetime elapsed', condition: '', to: 'EXPIRED', also: 'Event session.expired.' },
  {
    from: 'AUTHORIZED',
    trigger: 'POST .../capture/',
    condition: 'amount at most amount_authorized; the acquirer deposits',
    to: 'SUCCEEDED',
    also: 'amount_captured; the rest of the hold released. Event session.succeeded, fee on the captured amount.',
  },
  { from: 'AUTHORIZED', trigger: 'POST .../capture/', condition: 'the acquirer refuses', to: 'AUTHORIZED', also: '422 capture-failed; the hold stands.' },
  {
    from: 'AUTHORIZED',
    trigger: 'POST .../capture/',
    condition: 'the acquirer does not answer',
    to: 'AUTHORIZED',
    also: '502 processor-unavailable; reconciliation learns the outcome, then session.succeeded once (or the hold stands).',
  },
  { from: 'AUTHORIZED', trigger: 'cancel', condition: 'no capture under way', to: 'CANCELED', also: 'The hold is released (reverse.do). Event session.canceled.' },
  {
    from: 'AUTHORIZED',
    trigger: 'AUTHORIZATION_TTL_SECONDS elapsed',
    condition: 'no capture under way',
    to: 'EXPIRED',
    also: 'The hold is released (reverse.do). Event session.expired.',
  },
];

/** The transitions as a Markdown table, as docs/session-states.md shows them. */
export function transitionTable(): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|');
  const rows = TRANSITIONS.map((t) => `| ${[t.from, t.trigger, t.condition, t.to, t.also].map(cell).join(' | ')} |`);
  return ['| From | Trigger | Condition | To | Also happens |', '|---|---|---|---|---|', ...rows].join('\n');
}

/** A hold being captured: a second capture, a cancel and the lapse sweep wait for it. */
export interface HoldState {
  readonly status: SessionStatus;
  readonly capturing: boolean;
}

/**
 * Why a capture may not start (D22), or undefined when it may: terminal is
 * 409 session-terminal, a capture under way 409 conflict, any other status
 * not AUTHORIZED 422 invalid-state.
 */
export function captureRefusal(state: HoldState): { code: 'session-terminal' | 'conflict' | 'invalid-state'; detail: string } | undefined {
  if (TERMINAL_STATUSES.includes(state.status)) return { code: 'session-terminal', detail: `The session is ${state.status}.` };
  if (state.status !== 'AUTHORIZED') return { code: 'invalid-state', detail: `Only an AUTHORIZED session can be captured; this one is ${state.status}.` };
  if (state.capturing) return { code: 'conflict', detail: 'A capture of this session is under way; wait for it to resolve.' };
  return undefined;
}

/**
 * Why a cancel may not happen (INTERFACE 3.1 rule 1, D22), or undefined when
 * it may: a payment or a capture under way is 409 conflict, terminal 409
 * session-terminal.
 */
export function cancelRefusal(state: HoldState): { code: 'session-terminal' | 'conflict'; detail: string } | undefined {
  if (state.status === 'PROCESSING') return { code: 'conflict', detail: 'A payment attempt is in progress; wait for it to resolve.' };
  if (state.status === 'AUTHORIZED') return state.capturing ? { code: 'conflict', detail: 'A capture of this session is under way; wait for it to resolve.' } : undefined;
  if (!OPEN_STATUSES.includes(state.status)) return { code: 'session-terminal', detail: `The session is ${state.status}.` };
  return undefined;
}
