/**
 * getBindings.do: the saved cards of one client at this terminal, oldest
 * first; unbound ones never, expired ones only with showExpired=true. A
 * client with none answers an empty list.
 */
import { describeBinding, MAX_CLIENT_ID_LENGTH } from './binding.js';
import { isExpired } from './card.js';
import { invalid, type CallFields } from './epg-error.js';
import { required, type CallParams, type Sandbox } from './sandbox.js';

/** bindings: [{bindingId, maskedPan, expiryDate, clientId}] of the client. */
export function listBindings(sandbox: Sandbox, terminal: string, params: CallParams): CallFields {
  const clientId = required(params, 'clientId');
  if (clientId.length > MAX_CLIENT_ID_LENGTH) throw invalid('clientId');
  const showExpired = params.get('showExpired') ?? 'false';
  if (showExpired !== 'true' && showExpired !== 'false') throw invalid('showExpired');
  const now = sandbox.now();
  const shown = sandbox.bindings.ofClient(terminal, clientId).filter((binding) => showExpired === 'true' || !isExpired(binding.card.expiration, now));
  return { bindings: shown.map(describeBinding) };
}
