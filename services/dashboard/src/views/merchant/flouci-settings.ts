/**
 * The Flouci section of the Settings page (D26). Test mode always uses the
 * sandbox's Flouci, so it only says so. Live mode shows whether the merchant's
 * Flouci application is connected and its public key, and owners save or
 * remove the keys; the private key is typed into a password field and never
 * shown back, not even after a refusal.
 */
import type { CommandReply } from '@gateway/contracts';
import { html, type Html } from '@gateway/runtime';
import { csrfField, phrase, when, type Reader } from '../layout.js';
import { BASE } from '../paths.js';

/** Where the section's forms post. */
const FLOUCI_SETTINGS = `${BASE}/settings/flouci`;

/** The section: `flouci` is the live application as the adapter tells it (absent in test mode); `owner` whether the reader may change it. */
export function flouciSection(reader: Reader, flouci: CommandReply<'wallet.settings.get'>['flouci'] | undefined, owner: boolean): Html {
  const { t } = reader;
  const heading = html`<h2 id="flouci-heading">${t('flouci_wallet')}</h2>`;
  if (reader.mode === 'test' || flouci === undefined) {
    return html`<section class="card" aria-labelledby="flouci-heading">${heading}<p class="muted" data-flouci="sandbox">${t('flouci_test_note')}</p></section>`;
  }
  const status = flouci.connected ? t('flouci_connected') : flouci.rejected ? t('flouci_rejected') : t('flouci_not_connected');
  const saved =
    flouci.public_key === null
      ? ''
      : html`<p>${t('flouci_public_key')}: <code dir="ltr" data-flouci-public-key>${flouci.public_key}</code> <span class="muted">${phrase(t, 'flouci_saved_at', { time: when(flouci.updated_at) })}</span></p>`;
  return html`<section class="card" aria-labelledby="flouci-heading">
${heading}
<p>${t('flouci_live_payments')}: <strong data-flouci="${flouci.connected ? 'connected' : flouci.rejected ? 'rejected' : 'not-connected'}">${status}</strong></p>
${saved}
<p class="muted">${t('flouci_live_note')}</p>
${owner ? keysForms(reader, flouci.public_key !== null) : ''}
</section>`;
}

/** The owner's forms: both keys (the private one in a password field, never filled), and the removal once keys are saved. */
function keysForms(reader: Reader, saved: boolean): Html {
  const { t } = reader;
  const remove = saved
    ? html`<form method="post" action="${FLOUCI_SETTINGS}/remove" class="inline" data-confirm="${t('flouci_remove_confirm')}">${csrfField(reader.csrf)}<button type="submit" class="danger">${t('flouci_remove_keys')}</button></form>`
    : '';
  return html`<form method="post" action="${FLOUCI_SETTINGS}" class="row" autocomplete="off">${csrfField(reader.csrf)}
<label>${t('flouci_public_key')} <input name="public_key" maxlength="200" required spellcheck="false" autocomplete="off" dir="ltr" aria-describedby="flouci-hint"></label>
<label>${t('flouci_private_key')} <input type="password" name="private_key" maxlength="200" required autocomplete="new-password" dir="ltr" aria-describedby="flouci-hint"></label>
<button type="submit">${t('flouci_save_keys')}</button></form>
${remove}
<p class="muted" id="flouci-hint">${t('flouci_keys_hint')}</p>`;
}
