/** The checkout service's branding commands (D20): each one use case. */
import type { CommandHandlers } from '@gateway/messaging';
import { getBranding, removeLogo, setBranding, type BrandingDeps } from '../domain/branding.js';

export function brandingCommands(deps: BrandingDeps): CommandHandlers {
  return {
    'branding.get': async (command) => ({ body: await getBranding(deps, command) }),
    'branding.set': async (command) => ({ body: await setBranding(deps, command) }),
    'branding.remove_logo': async (command) => ({ body: await removeLogo(deps, command) }),
  };
}
