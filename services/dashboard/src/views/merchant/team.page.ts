/** Team (D14, D20): the merchant's people, their roles and how they sign in; for owners, invite, change role, resend an invitation, remove. */
import { DashboardRole } from '@gateway/contracts';
import { html, type Html } from '@gateway/runtime';
import type { PersonRow } from '../../db/person.repository.js';
import { csrfField, table, when, type PageView, type Reader } from '../layout.js';
import { BASE } from '../paths.js';
import { roleName } from './merchant-frame.js';

const TEAM = `${BASE}/team`;
const ROLES = DashboardRole.anyOf.map((literal) => literal.const);

/** The Team page for the person `selfId` (who cannot remove themselves), with the outcome of a change when there is one. */
export function teamPage(reader: Reader, team: readonly PersonRow[], selfId: string, message?: Html): PageView {
  const { t } = reader;
  const rows = team.map(
    (p) => html`<tr><td>${p.email}</td><td>
<form method="post" action="${TEAM}/${p.id}/role" class="inline">${csrfField(reader.csrf)}
<select name="role" aria-label="${t('role')} ${p.email}">${ROLES.map((r) => html`<option value="${r}"${r === p.role ? html` selected` : ''}>${roleName(t, r)}</option>`)}</select>
<button type="submit" class="secondary">${t('change_role_button')}</button></form></td>
<td>${p.password_hash ? (p.totp_enabled_at ? t('two_step_short') : t('password')) : html`${t('invited')}<form method="post" action="${TEAM}/${p.id}/resend" class="inline">${csrfField(reader.csrf)}<button type="submit" class="secondary">${t('resend_invitation')}</button></form>`}</td><td>${when(p.created_at.toISOString())}</td>
<td>${p.id === selfId ? '' : html`<form method="post" action="${TEAM}/${p.id}/remove" class="inline" data-confirm="${t('remove_person_confirm')}">${csrfField(reader.csrf)}<button type="submit" class="danger">${t('remove_button')}</button></form>`}</td></tr>`,
  );
  const body = html`<h1>${t('team_section')}</h1>${message ?? ''}
<div class="card">${table([t('email'), t('role'), t('security_section'), t('created'), ''], rows, t('nothing_yet'))}</div>
<form method="post" action="${TEAM}" class="row card">${csrfField(reader.csrf)}
<label>${t('email')} <input type="email" name="email" required></label>
<label>${t('role')} <select name="role">${ROLES.map((r) => html`<option value="${r}"${r === 'viewer' ? html` selected` : ''}>${roleName(t, r)}</option>`)}</select></label>
<button type="submit">${t('invite_button')}</button></form>
<p class="muted">${t('roles_note')}</p>`;
  return { title: t('team_section'), body };
}
