/** A secret on the page, once (a new key, a signing secret), with a way to copy it. */
import { html, type Html } from '@gateway/runtime';
import { notice } from './layout.js';
import type { Words } from './texts/catalogue.js';

/** The secret under `label`, its copy button in the reader's words, and `warning` below it. */
export function shownSecret(label: string, secret: string, warning: string, t: Words): Html {
  return notice(
    'warn',
    html`<p><strong>${label}</strong></p><p><code class="secret" id="shown-secret">${secret}</code> <button type="button" class="secondary" data-copy="shown-secret">${t('copy_button')}</button></p><p>${warning}</p>`,
  );
}
