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
          ? html`<form method="post" action="${RATES}/remove" class="inline" data-confirm="${t('Remove this rate? New sessions in this currency will be refused.')}">${csrfField(viewer.csrf)}<input type="hidden" name="currency" value="${r.currency}"><button type="submit" class="danger">${t('Remove')}</button></form>`
          : ''
      }</td></tr>`,
    );
    return view.render(
      RATES,
      t('Exchange rates'),
      html`<h1>${t('Exchange rates')} <span class="badge ${viewer.mode}">${viewer.mode === 'live' ? t('Live mode') : t('Test mode')}</span></h1>
${message ?? ''}
<div class="card">${table([t('Currency'), `${t('Rate')} (TND)`, t('Created'), ''], rows, t('No rates: sessions can be created in TND only.'), [1])}</div>
${
  developer
    ? html`<form method="post" action="${RATES}" class="row card">${csrfField(viewer.csrf)}
<label>${t('Currency')} <input name="currency" required maxlength="3" size="4" autocapitalize="characters"></label>
<label>${t('Rate')} <input name="rate" required inputmode="decimal" placeholder="3.350000"></label>
<button type="submit">${t('Save')}</button></form>`
    : ''
}
<p class="muted">${t('A rate is the TND value of one unit, up to six decimals. Sessions already created keep the rate they were made with.')}</p>`,
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
      return notice('ok', viewer.t('1 {currency} = {rate} TND.', { currency: set.currency, rate: set.rate }));
    }),
  );
  router.post(
    '/exchange-rates/remove',
    ...merchantChange(deps, 'develop', showRates, async (req, view) => {
      const { viewer } = view;
      const removed = await view.call.command('rate.remove', { merchant_id: view.merchant.merchant_id, mode: viewer.mode, currency: field(req.body, 'currency') });
      return notice('ok', viewer.t('{currency} removed.', { currency: removed.currency }));
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
<select name="role" aria-label="${t('Role')} ${p.email}">${ROLES.map((r) => html`<option value="${r}"${r === p.role ? html` selected` : ''}>${roleName(viewer, r)}</option>`)}</select>
<button type="submit" class="secondary">${t('Change role')}</button></form></td>
<td>${p.password_hash ? (p.totp_enabled_at ? t('Two-step') : t('Password')) : html`${t('Invited')}<form method="post" action="${TEAM}/${p.id}/resend" class="inline">${csrfField(viewer.csrf)}<button type="submit" class="secondary">${t('Resend invitation')}</button></form>`}</td><td>${when(p.created_at.toISOString())}</td>
<td>${p.id === viewer.person.id ? '' : html`<form method="post" action="${TEAM}/${p.id}/remove" class="inline" data-confirm="${t('Remove this person from the team?')}">${csrfField(viewer.csrf)}<button type="submit" class="danger">${t('Remove')}</button></form>`}</td></tr>`,
    );
    return view.render(
      TEAM,
      t('Team'),
      html`<h1>${t('Team')}</h1>${message ?? ''}
<div class="card">${table([t('Email'), t('Role'), t('Security'), t('Created'), ''], rows, t('Nothing here yet.'))}</div>
<form method="post" action="${TEAM}" class="row card">${csrfField(viewer.csrf)}
<label>${t('Email')} <input type="email" name="email" required></label>
<label>${t('Role')} <select name="role">${ROLES.map((r) => html`<option value="${r}"${r === 'viewer' ? html` selected` : ''}>${roleName(viewer, r)}</option>`)}</select></label>
<button type="submit">${t('Invite')}</button></form>
<p class="muted">${t('Owners do everything and manage the team; developers manage keys, webhooks, rates, payments and refunds; viewers read, and never see a secret.')}</p>`,
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
      if (!(ROLES as readonly string[]).includes(role)) throw new AppError('validation-error', viewer.t('The role must be one of {roles}.', { roles: ROLES.join(', ') }));
      // D20: the setup link goes by mail to the person alone; the inviter never sees it.
      const invited = await invite(
        deps.accounts,
        { merchantId: view.merchant.merchant_id, merchantName: view.merchant.name, role: role as DashboardRole, email: field(req.body, 'email'), language: viewer.language },
        viewer.doer,
      );
      return invited.mailed
        ? notice('ok', viewer.t('Invitation mailed to {email}. The link in it works once, for 24 hours.', { email: invited.email }))
        : notice('warn', viewer.t('{email} is invited, but the invitation could not be mailed. Choose "Resend invitation" on their row in a moment.', { email: invited.email }));
    }),
  );
  router.post(
    '/team/:id/resend',
    ...merchantChange(deps, 'team', showTeam, async (req, view) => {
      const { viewer } = view;
      const sent = await resendInvitation(deps.accounts, { merchantId: view.merchant.merchant_id, merchantName: view.merchant.name, personId: String(req.params['id']), language: viewer.language }, viewer.doer);
      return sent.mailed
        ? notice('ok', viewer.t('New invitation mailed to {email}; the links sent before no longer work.', { email: sent.email }))
        : notice('warn', viewer.t('The new invitation to {email} could not be mailed. Try "Resend invitation" again in a moment.', { email: sent.email }));
    }),
  );
  router.post(
    '/team/:id/role',
    ...merchantChange(deps, 'team', showTeam, async (req, view) => {
      const { viewer } = view;
      const role = field(req.body, 'role');
      if (!(ROLES as readonly string[]).includes(role)) throw new AppError('validation-error', viewer.t('The role must be one of {roles}.', { roles: ROLES.join(', ') }));
      await changeRole(deps.accounts, view.merchant.merchant_id, String(req.params['id']), role as DashboardRole, viewer.doer);
      return notice('ok', viewer.t('Role changed.'));
    }),
  );
  router.post(
    '/team/:id/remove',
    ...merchantChange(deps, 'team', showTeam, async (req, view) => {
      const { viewer } = view;
      await removePerson(deps.accounts, view.merchant.merchant_id, String(req.params['id']), viewer.doer);
      return notice('ok', viewer.t('Removed; they are signed out.'));
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
        (e) => html`<tr><td>${when(e.at)}</td><td><bdi>${e.actor_email ?? e.actor_id}</bdi> <span class="muted">(${e.actor_type === 'operator' ? t('operator') : t('user')})</span></td><td><code>${e.action}</code></td><td><bdi>${e.target ?? ''}</bdi></td><td>${e.outcome}</td><td><bdi>${e.address ?? ''}</bdi></td></tr>`,
      );
      const last = log.data[log.data.length - 1];
      return view.render(
        AUDIT,
        t('Audit log'),
        html`<h1>${t('Audit log')}</h1><div class="card">${table([t('When'), t('Who'), t('What'), t('Target'), t('Outcome'), t('From address')], rows, t('Nothing here yet.'))}
${last && log.has_more ? html`<nav class="pager" aria-label="${t('Pages')}"><a href="${AUDIT}?before=${last.audit_id}">${t('Older')} ${FORWARD_ARROW}</a></nav>` : ''}</div>`,
      );
    }),
  );
}
