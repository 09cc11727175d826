/**
 * Settings (D20): whether buyers of the mode in view get receipts (in test
 * mode, off until turned on, D29), and the merchant's branding, the same in
 * both modes: a logo (PNG or SVG) and an accent colour. Developers and owners
 * change them; viewers read. Then the Flouci wallet (D26, flouci-settings.ts),
 * whose live keys only owners change.
 */
import type { Branding, CommandReply } from '@gateway/contracts';
import { html, type Html } from '@gateway/runtime';
import { csrfField, modeName, type PageView, type Reader } from '../layout.js';
import { BASE } from '../paths.js';
import { flouciSection } from './flouci-settings.js';

export const SETTINGS = `${BASE}/settings`;

/** What the page shows. */
interface SettingsView {
  receipts: CommandReply<'receipts.settings.get'>;
  branding: Branding;
  /** The merchant's name: the logo's text alternative. */
  merchantName: string;
  /** Where the page shows the logo from, when it can (the dashboard's CSP allows only its own images); otherwise its address is shown. */
  logoPreview?: string;
  /** Whether the reader may change the settings. */
  editor: boolean;
  /** D26: the merchant's live Flouci application, read in live mode only (test mode always uses the sandbox's). */
  flouci?: CommandReply<'wallet.settings.get'>['flouci'];
  /** Whether the reader may save or remove the Flouci keys (owners). */
  owner: boolean;
}

/** The Settings page, with the outcome of a change when there is one. */
export function settingsPage(reader: Reader, view: SettingsView, message?: Html): PageView {
  const { t } = reader;
  const { receipts, branding, editor } = view;
  const mode = modeName(reader);
  const logo =
    branding.logo_url === null
      ? html`<p class="muted">${t('no_logo')}</p>`
      : html`<p>${view.logoPreview === undefined ? html`<code>${branding.logo_url}</code>` : html`<img class="brand-logo" src="${view.logoPreview}" alt="${view.merchantName}" height="64">`}</p>`;
  const body = html`<h1>${t('settings_section')} <span class="badge ${reader.mode}">${mode}</span></h1>
${message ?? ''}
<section class="card" aria-labelledby="receipts-heading">
<h2 id="receipts-heading">${t('receipts')}</h2>
<p>${t('send_receipts')} (${mode}): <strong data-receipts="${receipts.receipts_enabled ? 'on' : 'off'}">${receipts.receipts_enabled ? t('receipts_on') : t('receipts_off')}</strong></p>
${
  editor
    ? html`<form method="post" action="${SETTINGS}/receipts" class="row">${csrfField(reader.csrf)}
<input type="hidden" name="receipts_enabled" value="${receipts.receipts_enabled ? 'off' : 'on'}">
<button type="submit"${receipts.receipts_enabled ? html` class="secondary"` : ''}>${receipts.receipts_enabled ? t('turn_receipts_off') : t('turn_receipts_on')}</button></form>`
    : ''
}
<p class="muted">${t('receipts_note')}</p>
${reader.mode === 'test' ? html`<p class="muted">${t('receipts_test_note')}</p>` : ''}
</section>
<section class="card" aria-labelledby="brand-heading">
<h2 id="brand-heading">${t('branding')}</h2>
<p class="muted">${t('branding_note')}</p>
<h3>${t('logo')}</h3>
${logo}
${
  editor
    ? html`<form method="post" action="${SETTINGS}/logo" enctype="multipart/form-data" class="row">${csrfField(reader.csrf)}
<label>${t('logo_file')} <input type="file" name="logo" accept="image/png,image/svg+xml" required></label>
<button type="submit">${t('upload_button')}</button></form>
${
  branding.logo_url === null
    ? ''
    : html`<form method="post" action="${SETTINGS}/logo/remove" class="inline" data-confirm="${t('remove_logo_confirm')}">${csrfField(reader.csrf)}<button type="submit" class="danger">${t('remove_logo_button')}</button></form>`
}`
    : ''
}
<p class="muted">${t('svg_logo_note')}</p>
<h3>${t('accent_colour')}</h3>
<p>${branding.accent_color === null ? t('no_accent_colour') : html`<code data-accent="${branding.accent_color}">${branding.accent_color}</code>`}</p>
${
  editor
    ? html`<form method="post" action="${SETTINGS}/accent" class="row">${csrfField(reader.csrf)}
<label>${t('colour')} <input type="color" name="accent_picker" value="${branding.accent_color ?? '#0b5cad'}" aria-describedby="accent-hint"></label>
<label>${t('colour_as_hex')} <input name="accent_color" pattern="#[0-9A-Fa-f]{6}" maxlength="7" size="8" dir="ltr" placeholder="${branding.accent_color ?? '#0b5cad'}"></label>
<button type="submit">${t('save_button')}</button></form>`
    : ''
}
<p class="muted" id="accent-hint">${t('accent_colour_hint')}</p>
</section>
${flouciSection(reader, view.flouci, view.owner)}`;
  return { title: t('settings_section'), body };
}
