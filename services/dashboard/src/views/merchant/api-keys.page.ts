/**
 * API keys (D14): the keys of the mode in view; for developers and owners, a
 * test key's "Reveal", a live key's "Rotate" with a choice of grace, "Revoke",
 * and "Create key" (or "Create live key").
 */
import type { ApiKeySummary, CommandReply } from '@gateway/contracts';
import { html, type Html } from '@gateway/runtime';
import { csrfField, modeBadge, table, when, type PageView, type Reader } from '../layout.js';
import { BASE } from '../paths.js';
import type { Words } from '../texts/catalogue.js';

const SECTION = `${BASE}/api-keys`;

/** A choice of "Revoke old key": now, or in hours, minutes or seconds. */
function graceLabel(t: Words, seconds: number): string {
  if (seconds === 0) return t('grace_now');
  if (seconds % 3600 === 0) return t('grace_hours', { n: seconds / 3600 });
  if (seconds % 60 === 0) return t('grace_minutes', { n: seconds / 60 });
  return t('grace_seconds', { n: seconds });
}

/** What the page shows. */
interface KeysView {
  keys: CommandReply<'api_key.list'>;
  /** Whether the reader may change keys. */
  developer: boolean;
  /** The choices of "Rotate" for the old live key, in seconds (D14). */
  graces: readonly number[];
}

/** The API keys page, with the outcome of a change when there is one. */
export function apiKeysPage(reader: Reader, view: KeysView, message?: Html): PageView {
  const { t } = reader;
  const { developer } = view;
  const now = Date.now();
  const active = (key: ApiKeySummary) => key.revoked_at === null || Date.parse(key.revoked_at) > now;
  const rows = view.keys.data.map((key) => {
    const live = active(key);
    const state = !live ? html`${t('revoked')} ${when(key.revoked_at)}` : key.revoked_at ? html`${t('ends')} ${when(key.revoked_at)}` : t('active');
    const actions: Html[] = [];
    if (developer && live && key.mode === 'test' && key.revealable) {
      actions.push(html`<form method="post" action="${SECTION}/${key.key_id}/reveal" class="inline">${csrfField(reader.csrf)}<button type="submit" class="secondary">${t('reveal_button')}</button></form>`);
    }
    if (developer && live && key.mode === 'live' && !key.revoked_at) {
      actions.push(html`<form method="post" action="${SECTION}/${key.key_id}/rotate" class="inline" data-confirm="${t('rotate_confirm')}">${csrfField(reader.csrf)}
<label class="inline">${t('revoke_old_key')} <select name="revoke_in_seconds">${view.graces.map((s) => html`<option value="${s}">${graceLabel(t, s)}</option>`)}</select></label>
<button type="submit" class="secondary">${t('rotate_button')}</button></form>`);
    }
    if (developer && live) {
      actions.push(html`<form method="post" action="${SECTION}/${key.key_id}/revoke" class="inline" data-confirm="${t('revoke_confirm')}">${csrfField(reader.csrf)}<button type="submit" class="danger">${t('revoke_button')}</button></form>`);
    }
    return html`<tr><td><code>${key.key_id}</code></td><td><code>sk_${key.mode}_…${key.last_four}</code></td><td>${when(key.created_at)}</td><td>${state}</td><td>${actions}</td></tr>`;
  });
  const create =
    developer && reader.mode === 'test'
      ? html`<form method="post" action="${SECTION}/create" class="row">${csrfField(reader.csrf)}<button type="submit">${t('create_key')}</button></form>`
      : developer && reader.mode === 'live'
        ? html`<form method="post" action="${SECTION}/create" class="row">${csrfField(reader.csrf)}<button type="submit">${t('create_live_key')}</button></form>`
        : '';
  const body = html`<h1>${t('api_keys_section')} ${modeBadge(reader)}</h1>
${message ?? ''}
<div class="card">${table([t('key'), t('last_four'), t('created'), t('status'), ''], rows, t('nothing_yet'))}</div>
${create}
<p class="muted">${t('api_keys_note')}</p>`;
  return { title: t('api_keys_section'), body };
}
