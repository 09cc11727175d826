/** What every call of the sandbox acquirer works with, and the shape of a call. */
import type { AcsTokens } from './acs-tokens.js';
import type { Binding } from './binding.js';
import type { BindingStore } from './binding.store.js';
import { bindingInactive, bindingNotFound, missing, orderNotFound, type CallFields } from './epg-error.js';
import type { Order } from './order.js';
import type { OrderStore } from './order.store.js';

export interface Sandbox {
  readonly store: OrderStore;
  readonly tokens: AcsTokens;
  /** Saved cards (D24). */
  readonly bindings: BindingStore;
  /** Keys the cards' fingerprints (card.ts); fresh at every start, as the saved cards are. */
  readonly cardKey: Buffer;
  /** Base URL a buyer's browser reaches the sandbox at, without a trailing slash. */
  readonly publicUrl: string;
  /** How long the "does not answer in time" card keeps its caller waiting. */
  readonly slowDelayMs: number;
  /**
   * Whether this deployment serves finish3dsVer2Payment.do (config.ts). Without
   * it, the ACS posts cres to the sandbox's own finish endpoint, which
   * finishes the order itself and sends the browser to returnUrl.
   */
  readonly finish3dsVer2: boolean;
  readonly now: () => Date;
  /** Resolves after `ms` without holding up other requests; stopping the service releases it early. */
  readonly wait: (ms: number) => Promise<void>;
}

/** The form fields of a call; an absent or empty field reads as undefined. */
export interface CallParams {
  get(name: string): string | undefined;
}

/** One call of /payment/rest/, made by an authenticated terminal: its fields on success; a refusal throws EpgError. */
export type Call = (sandbox: Sandbox, terminal: string, params: CallParams) => CallFields | Promise<CallFields>;

/** A mandatory field, or "4". */
export function required(params: CallParams, name: string): string {
  const value = params.get(name);
  if (value === undefined) throw missing(name);
  return value;
}

/** The terminal's order with this id, or "6". */
export function findOrder(sandbox: Sandbox, terminal: string, orderId: string): Order {
  const order = sandbox.store.byId(terminal, orderId);
  if (!order) throw orderNotFound();
  return order;
}

/** The terminal's binding with this id that may still be charged: unknown (or another terminal's) and unbound are "2". */
export function findActiveBinding(sandbox: Sandbox, terminal: string, bindingId: string): Binding {
  const binding = sandbox.bindings.byId(terminal, bindingId);
  if (!binding) throw bindingNotFound();
  if (!binding.active) throw bindingInactive();
  return binding;
}
