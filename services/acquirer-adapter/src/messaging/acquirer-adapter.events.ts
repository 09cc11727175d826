/**
 * The acquirer adapter's events: each change its event consumer applies, the
 * events that announce it, and what each event carries of it; the use case
 * that applies it is in domain/.
 */
import type { EventData } from '@gateway/contracts';
import type { AnyChange, Change } from '@gateway/messaging';
import type { AdapterDeps } from '../domain/deps.js';
import { releaseHold } from '../domain/release-hold.js';
import { unbindDetachedCard } from '../domain/unbind-card.js';

/** The changes the event consumer applies, whichever event of theirs arrives. */
export function adapterEvents(deps: AdapterDeps): AnyChange[] {
  // D22: the hold of a session canceled or lapsed while AUTHORIZED is released, once.
  const holdRelease: Change<'session.hold_canceled', EventData<'session.hold_canceled'>, true> = {
    name: 'hold-release',
    events: ['session.hold_canceled'],
    fromEvent: (data) => data,
    apply: (data) => releaseHold(deps, data),
  };
  // D24: a saved card removed is never charged again, and is unbound at the acquirer.
  const cardUnbinding: Change<'payment_method.detached', EventData<'payment_method.detached'>, true> = {
    name: 'card-unbinding',
    events: ['payment_method.detached'],
    fromEvent: (data) => data,
    apply: (data) => unbindDetachedCard(deps, data),
  };
  return [holdRelease, cardUnbinding];
}
