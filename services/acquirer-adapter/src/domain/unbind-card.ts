/**
 * Removing a saved card at the acquirer (D24). payment_method.detached (a card
 * removed, or its customer deleted) marks the binding detached, so it is never
 * charged again, and unbinds it (unBindCard.do); an unbinding the acquirer did
 * not confirm is tried again by the sweep, BINDING_UNBIND_RETRY_SECONDS later,
 * until it does.
 */
import type { EventData } from '@gateway/contracts';
import { describeError } from '@gateway/observability';
import type { DetachedBinding } from '../db/binding.repository.js';
import type { AdapterDeps } from './deps.js';
import { resolveTerminal } from './terminals.js';

/** How long an unbinding under way is left before the sweep tries it again. */
const UNBIND_RETRY_SECONDS = 60;
const SWEEP_BATCH = 50;

/** Detaches and unbinds the card the event names, once; true when this call detached it. */
export async function unbindDetachedCard(deps: AdapterDeps, data: EventData<'payment_method.detached'>): Promise<true | undefined> {
  const binding = await deps.bindings.detach(data.merchant_id, data.livemode, data.payment_method.id, UNBIND_RETRY_SECONDS);
  if (!binding) return undefined;
  await unbind(deps, binding);
  return true;
}

/** The sweep: tries again the unbindings the acquirer has not confirmed; how many it tried. */
export async function unbindDueCards(deps: AdapterDeps): Promise<number> {
  const due = await deps.bindings.dueForUnbinding(SWEEP_BATCH, UNBIND_RETRY_SECONDS);
  for (const binding of due) await unbind(deps, binding);
  return due.length;
}

async function unbind(deps: AdapterDeps, binding: DetachedBinding): Promise<void> {
  const resolved = await resolveTerminal(deps, binding.merchantId, binding.livemode);
  if (resolved.status !== 'active') {
    deps.log.warn({ paymentMethodId: binding.paymentMethodId, terminal: resolved.status }, 'saved card detached; its unbinding waits for a usable terminal');
    return;
  }
  try {
    const result = await deps.acquirer.unbind(resolved.terminal, binding.bindingId);
    if (result.kind === 'done') {
      await deps.bindings.markUnbound(binding.paymentMethodId);
      deps.log.info({ paymentMethodId: binding.paymentMethodId }, 'saved card unbound at the acquirer');
    } else {
      deps.log.warn({ paymentMethodId: binding.paymentMethodId, errorCode: result.errorCode }, 'saved card detached; the acquirer did not unbind it, tried again later');
    }
  } catch (err) {
    deps.log.warn({ paymentMethodId: binding.paymentMethodId, err: describeError(err) }, 'saved card detached; unbinding failed, tried again later');
  }
}
