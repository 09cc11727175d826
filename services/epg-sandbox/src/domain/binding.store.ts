/**
 * Saved cards in memory, oldest first. The same card (its fingerprint and
 * expiry) saved again for the same terminal and client is the binding it
 * already has, unless that one was unbound: the card is then saved anew.
 * Beyond the retention the oldest bindings are forgotten, as orders are.
 */
import { randomUUID } from 'node:crypto';
import type { Binding } from './binding.js';
import type { CardDetails } from './card.js';

export class BindingStore {
  private readonly bindings = new Map<string, Binding>();
  /** sameCardKey → bindingId of the active binding of that card */
  private readonly active = new Map<string, string>();
  /** clientKey → bindingIds, oldest first */
  private readonly clients = new Map<string, Set<string>>();

  constructor(private readonly retention: number) {
    if (!Number.isSafeInteger(retention) || retention < 1) throw new RangeError('retention must be a positive integer');
  }

  get size(): number {
    return this.bindings.size;
  }

  /** The client's active binding of this card, or a new one. */
  save(terminal: string, clientId: string, card: CardDetails): Binding {
    const sameCard = sameCardKey(terminal, clientId, card);
    const existing = this.bindings.get(this.active.get(sameCard) ?? '');
    if (existing) return existing;
    const binding: Binding = { bindingId: randomUUID(), terminal, clientId, card, active: true };
    this.bindings.set(binding.bindingId, binding);
    this.active.set(sameCard, binding.bindingId);
    const client = clientKey(terminal, clientId);
    const ids = this.clients.get(client) ?? new Set<string>();
    ids.add(binding.bindingId);
    this.clients.set(client, ids);
    while (this.bindings.size > this.retention) this.evictOldest();
    return binding;
  }

  /** The terminal's binding with this id, active or not; another terminal's is as unknown. */
  byId(terminal: string, bindingId: string): Binding | undefined {
    const binding = this.bindings.get(bindingId);
    return binding?.terminal === terminal ? binding : undefined;
  }

  /** Deactivates a binding for good; the same card saved again gets a new one. */
  unbind(binding: Binding): void {
    binding.active = false;
    this.forgetActive(binding);
  }

  /** The client's active bindings at this terminal, oldest first. */
  ofClient(terminal: string, clientId: string): Binding[] {
    const ids = this.clients.get(clientKey(terminal, clientId)) ?? new Set<string>();
    return [...ids].flatMap((id) => {
      const binding = this.bindings.get(id);
      return binding?.active ? [binding] : [];
    });
  }

  private evictOldest(): void {
    const oldest = this.bindings.values().next();
    if (oldest.done) return;
    const binding = oldest.value;
    this.forgetActive(binding);
    this.bindings.delete(binding.bindingId);
    const client = clientKey(binding.terminal, binding.clientId);
    const ids = this.clients.get(client);
    ids?.delete(binding.bindingId);
    if (ids?.size === 0) this.clients.delete(client);
  }

  private forgetActive(binding: Binding): void {
    const sameCard = sameCardKey(binding.terminal, binding.clientId, binding.card);
    if (this.active.get(sameCard) === binding.bindingId) this.active.delete(sameCard);
  }
}

// JSON arrays: a clientId may hold any character, so no separator could be trusted.
function clientKey(terminal: string, clientId: string): string {
  return JSON.stringify([terminal, clientId]);
}

function sameCardKey(terminal: string, clientId: string, card: CardDetails): string {
  return JSON.stringify([terminal, clientId, card.fingerprint, card.expiration]);
}
