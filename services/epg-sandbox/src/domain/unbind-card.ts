/** unBindCard.do: deactivates one of this terminal's saved cards for good; "2" when unknown or already unbound. */
import type { CallFields } from './epg-error.js';
import { findActiveBinding, required, type CallParams, type Sandbox } from './sandbox.js';

/** Unbinds the terminal's active binding; no later charge may use it. */
export function unbindCard(sandbox: Sandbox, terminal: string, params: CallParams): CallFields {
  sandbox.bindings.unbind(findActiveBinding(sandbox, terminal, required(params, 'bindingId')));
  return {};
}
