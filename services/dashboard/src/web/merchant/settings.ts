/**
 * Settings (D14): exchange rates per mode (the session service's rates, INTERFACE
 * 2.8), the team (owner: invite, change role, remove) and the audit log (owner).
 */
import type { Router } from 'express';
import { DashboardRole } from '@gateway/contracts';
import { AppError } from '@gateway/problem';
import { html } from '@gateway/runtime';
import { changeRole, removePerson } from '../../identity/accounts.js';
import { invite, resendInvitation } from '../../identity/people-mail.js';
import type { DoorDeps } from '../door.js';
import { csrfField, FORWARD_ARROW, notice, table, when } from '../layout.js';
import { signedIn } from '../sign-in.js';
import { BASE, can, merchantChange, merchantPage, merchantView, needs, roleName, type SectionView } from './frame.js';

const ROLES = DashboardRole.anyOf.map((literal) => literal.const);

function field(body: unknown, name: string): string {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value.trim() : '';
}

export function settingsRoutes(deps: DoorDeps, router: Router): void {
  // ---------------------------------------------------------------- exchange rates
  const RATES = `${BASE}/exchange-rates`;
  const showRates: SectionView = async (view, _req, message, status) => {
    const { viewer } = view;
    const { t } = viewer;
    const rates = await view.call.command('rate.list', { merchant_id: view.merchant.merchant_id, mode: viewer.mode });
    const developer = can(viewer, 'develop');
    const rows = rates.data.map(
      (r) => html`<tr><td>${r.currency}</td><td class="num">${r.rate}</td><td>${when(r.updated_at)}</td><td>${
        developer
          ? html`<form method="post" action="${RATES}/remove" class="inline" data-confirm="${t('remove_rate_confirm')}">${csrfField(viewer.csrf)}<input type="hidden" name="currency" value="${r.currency}"><button type="submit" class="danger">${t('remove_button')}</button></form>`
          : ''
      }</td></tr>`,
    );
    return view.render(
      RATES,
      t('exchange_rates_section'),
      html`<h1>${t('exchange_rates_section')} <span class="badge ${viewer.mode}">${viewer.mode === 'live' ? t('live_mode') : t('test_mode')}</span></h1>
${message ?? ''}
<div class="card">${table([t('currency'), `${t('rate')} (TND)`, t('created'), ''], rows, t('no_rates'), [1])}</div>
${
  developer
    ? html`<form method="post" action="${RATES}" class="row card">${csrfField(viewer.csrf)}
<label>${t('currency')} <input name="currency" required maxlength="3" size="4" autocapitalize="characters"></label>
<label>${t('rate')} <input name="rate" required inputmode="decimal" placeholder="3.350000"></label>
<button type="submit">${t('save_button')}</button></form>`
    : ''
}
<p class="muted">${t('rates_note')}</p>`,
      status,
    );
  };
  router.get(
    '/exchange-rates',
    merchantView(deps, 'read', showRates),
  );
  router.post(
    '/exchange-rates',
    ...merchantChange(deps, 'develop', showRates, async (req, view) => {
      const { viewer } = view;
      const set = await view.call.command('rate.set', { merchant_id: view.merchant.merchant_id, mode: viewer.mode, currency: field(req.body, 'currency'), rate: field(req.body, 'rate') });
      return notice('ok', viewer.t('rate_saved', { currency: set.currency, rate: set.rate }));
    }),
  );
  router.post(
    '/exchange-rates/remove',
    ...merchantChange(deps, 'develop', showRates, async (req, view) => {
      const { viewer } = view;
      const removed = await view.call.command('rate.remove', { merchant_id: view.merchant.merchant_id, mode: viewer.mode, currency: field(req.body, 'currency') });
      return notice('ok', viewer.t('rate_removed', { currency: removed.currency }));
    }),
  );

  // ---------------------------------------------------------------- team
  const TEAM = `${BASE}/team`;
  const showTeam: SectionView = async (view, _req, message, status) => {
    const { viewer } = view;
    const { t } = viewer;
    const team = await deps.accounts.people.team(view.merchant.merchant_id);
    const rows = team.map(
      (p) => html`<tr><td>${p.email}</td><td>
<form method="post" action="${TEAM}/${p.id}/role" class="inline">${csrfField(viewer.csrf)}
<select name="role" aria-label="${t('role')} ${p.email}">${ROLES.map((r) => html`<option value="${r}"${r === p.role ? html` selected` : ''}>${roleName(viewer, r)}</option>`)}</select>
<button type="submit" class="secondary">${t('change_role_button')}</button></form></td>
<td>${p.password_hash ? (p.totp_enabled_at ? t('two_step_short') : t('password')) : html`${t('invited')}<form method="post" action="${TEAM}/${p.id}/resend" class="inline">${csrfField(viewer.csrf)}<button type="submit" class="secondary">${t('resend_invitation')}</button></form>`}</td><td>${when(p.created_at.toISOString())}</td>
<td>${p.id === viewer.person.id ? '' : html`<form method="post" action="${TEAM}/${p.id}/remove" class="inline" data-confirm="${t('remove_person_confirm')}">${csrfField(viewer.csrf)}<button type="submit" class="danger">${t('remove_button')}</button></form>`}</td></tr>`,
    );
    return view.render(
      TEAM,
      t('team_section'),
      html`<h1>${t('team_section')}</h1>${message ?? ''}
<div class="card">${table([t('email'), t('role'), t('security_section'), t('created'), ''], rows, t('nothing_yet'))}</div>
<form method="post" action="${TEAM}" class="row card">${csrfField(viewer.csrf)}
<label>${t('email')} <input type="email" name="email" required></label>
<label>${t('role')} <select name="role">${ROLES.map((r) => html`<option value="${r}"${r === 'viewer' ? html` selected` : ''}>${roleName(viewer, r)}</option>`)}</select></label>
<button type="submit">${t('invite_button')}</button></form>
<p class="muted">${t('roles_note')}</p>`,
      status,
    );
  };
  router.get(
    '/team',
    merchantView(deps, 'team', showTeam),
  );
  router.post(
    '/team',
    ...merchantChange(deps, 'team', showTeam, async (req, view) => {
      const { viewer } = view;
      const role = field(req.body, 'role');
      if (!(ROLES as readonly string[]).includes(role)) throw new AppError('validation-error', viewer.t('role_must_be', { roles: ROLES.join(', ') }));
      // D20: the setup link goes by mail to the person alone; the inviter never sees it.
      const invited = await invite(
        deps.accounts,
        { merchantId: view.merchant.merchant_id, merchantName: view.merchant.name, role: role as DashboardRole, email: field(req.body, 'email'), language: viewer.language },
        viewer.doer,
      );
      return invited.mailed
        ? notice('ok', viewer.t('invitation_mailed', { email: invited.email }))
        : notice('warn', viewer.t('invitation_not_mailed', { email: invited.email }));
    }),
  );
  router.post(
    '/team/:id/resend',
    ...merchantChange(deps, 'team', showTeam, async (req, view) => {
      const { viewer } = view;
      const sent = await resendInvitation(deps.accounts, { merchantId: view.merchant.merchant_id, merchantName: view.merchant.name, personId: String(req.params['id']), language: viewer.language }, viewer.doer);
      return sent.mailed
        ? notice('ok', viewer.t('invitation_resent', { email: sent.email }))
        : notice('warn', viewer.t('invitation_not_resent', { email: sent.email }));
    }),
  );
  router.post(
    '/team/:id/role',
    ...merchantChange(deps, 'team', showTeam, async (req, view) => {
      const { viewer } = view;
      const role = field(req.body, 'role');
      if (!(ROLES as readonly string[]).includes(role)) throw new AppError('validation-error', viewer.t('role_must_be', { roles: ROLES.join(', ') }));
      await changeRole(deps.accounts, view.merchant.merchant_id, String(req.params['id']), role as DashboardRole, viewer.doer);
      return notice('ok', viewer.t('role_changed'));
    }),
  );
  router.post(
    '/team/:id/remove',
    ...merchantChange(deps, 'team', showTeam, async (req, view) => {
      const { viewer } = view;
      await removePerson(deps.accounts, view.merchant.merchant_id, String(req.params['id']), viewer.doer);
      return notice('ok', viewer.t('person_removed'));
    }),
  );

  // ---------------------------------------------------------------- audit log
  const AUDIT = `${BASE}/audit-log`;
  router.get(
    '/audit-log',
    signedIn(deps, 'dashboard', needs('audit'), async (req, viewer) => {
      const view = await merchantPage(deps, viewer);
      const { t } = viewer;
      const before = typeof req.query['before'] === 'string' ? req.query['before'] : undefined;
      const log = await view.call.command('audit.list', { merchant_id: view.merchant.merchant_id, limit: 50, ...(before && { before }) });
      const rows = log.data.map(
        (e) => html`<tr><td>${when(e.at)}</td><td><bdi>${e.actor_email ?? e.actor_id}</bdi> <span class="muted">(${e.actor_type === 'operator' ? t('actor_operator') : t('actor_user')})</span></td><td><code>${e.action}</code></td><td><bdi>${e.target ?? ''}</bdi></td><td>${e.outcome}</td><td><bdi>${e.address ?? ''}</bdi></td></tr>`,
      );
      const last = log.data[log.data.length - 1];
      return view.render(
        AUDIT,
        t('audit_log_section'),
        html`<h1>${t('audit_log_section')}</h1><div class="card">${table([t('when'), t('who'), t('what'), t('target'), t('outcome'), t('from_address')], rows, t('nothing_yet'))}
${last && log.has_more ? html`<nav class="pager" aria-label="${t('pages_nav')}"><a href="${AUDIT}?before=${last.audit_id}">${t('older_page')} ${FORWARD_ARROW}</a></nav>` : ''}</div>`,
      );
    }),
  );
}
