/**
 * Merchants in the operations console (D15): the list, searched by part of a
 * name or a merchant id, filtered by status and paged; one merchant with its
 * business verification, limits per mode, fees and terminals; and the changes
 * gateway-admin makes (approve KYB, suspend, reactivate, limits, fees,
 * terminal), each the same operator command, signed for the operator, with
 * the owning service's rules and answers.
 */
import type { Request, Router } from 'express';
import type { CommandReply, MerchantDetail, Mode } from '@gateway/contracts';
import { describeError } from '@gateway/observability';
import { AppError, validationError } from '@gateway/problem';
import { html, type Html } from '@gateway/runtime';
import { acting, type DoorDeps } from '../door.js';
import type { TextKey, Words } from '../../views/texts/catalogue.js';
import { BACK_ARROW, csrfField, FORWARD_ARROW, notice, phrase, table, when } from '../layout.js';
import { shownSecret } from '../merchant/api-keys.js';
import { formBody, signedIn } from '../sign-in.js';
import { field, OPS, operators, opsPage, queryField, type OpsPage } from './frame.js';

const SECTION = `${OPS}/merchants`;
const PAGE_SIZE = 25;
const MERCHANT_ID = /^mer_[0-9A-Za-z]{20,}$/;
const MODES: readonly Mode[] = ['test', 'live'];
const BUDGETS = ['account', 'create', 'refund'] as const;
/** Each budget's name in a field's label ("create (test)") and as a column heading. */
const BUDGET_NAMES: Readonly<Record<(typeof BUDGETS)[number], { label: TextKey; heading: TextKey }>> = {
  account: { label: 'budget_account', heading: 'budget_account_heading' },
  create: { label: 'budget_create', heading: 'budget_create_heading' },
  refund: { label: 'budget_refund', heading: 'budget_refund_heading' },
};
const STATUS_NAMES: Readonly<Record<'active' | 'suspended', TextKey>> = { active: 'merchant_active', suspended: 'merchant_suspended_state' };
const MODE_NAMES: Readonly<Record<Mode, TextKey>> = { test: 'mode_test_word', live: 'mode_live_word' };

/** The merchant an address names; an id that cannot be one is no merchant, as an unknown one is not. */
function merchantIdOf(req: Request): string {
  const id = String(req.params['id']);
  if (!MERCHANT_ID.test(id)) throw new AppError('not-found', 'No such merchant.');
  return id;
}

/** A budget field: empty keeps the budget in force; otherwise a whole number of requests per second, as `limits set` takes. */
function budget(form: unknown, name: (typeof BUDGETS)[number], t: Words): number | undefined {
  const value = field(form, name);
  if (value === '') return undefined;
  if (!/^\d{1,9}$/.test(value)) throw validationError([{ field: name, code: 'invalid', message: t('budget_not_whole', { budget: name }) }]);
  return Number(value);
}

export function merchantRoutes(deps: DoorDeps, router: Router): void {
  router.get(
    '/merchants',
    signedIn(deps, 'ops', operators, async (req, viewer) => {
      const view = opsPage(deps, viewer);
      const { t } = viewer;
      const search = queryField(req, 'q');
      const status = queryField(req, 'status');
      const after = queryField(req, 'starting_after');
      if (status !== '' && status !== 'active' && status !== 'suspended') throw validationError([{ field: 'status', code: 'invalid', message: 'status must be active or suspended.' }]);
      const list = await view.command('merchant.list', {
        limit: PAGE_SIZE,
        ...(search !== '' && { search }),
        ...(status !== '' && { status }),
        ...(after !== '' && { starting_after: after }),
      });
      const keep = new URLSearchParams({ ...(search && { q: search }), ...(status && { status }) });
      const last = list.data[list.data.length - 1];
      const rows = list.data.map(
        (m) => html`<tr><td><a href="${SECTION}/${m.merchant_id}">${m.name}</a></td><td><code>${m.merchant_id}</code></td><td>${m.order_prefix}</td>
<td><span class="badge">${m.status}</span></td><td>${m.kyb_approved_at ? when(m.kyb_approved_at) : t('pending')}</td><td>${when(m.created_at)}</td></tr>`,
      );
      return view.render(
        SECTION,
        t('merchants_section'),
        html`<h1>${t('merchants_section')}</h1>
<form method="get" action="${SECTION}" class="row" role="search">
<label>${t('search')} <input name="q" value="${search}" maxlength="200" placeholder="${t('name')} / mer_…"></label>
<label>${t('status')} <select name="status"><option value="">${t('any_status')}</option>${(['active', 'suspended'] as const).map(
          (s) => html`<option value="${s}"${s === status ? html` selected` : ''}>${t(STATUS_NAMES[s])}</option>`,
        )}</select></label>
<button type="submit">${t('filter_button')}</button>
</form>
<div class="card">${table([t('name'), t('id'), t('prefix'), t('status'), t('kyb'), t('created')], rows, t('no_merchant_matches'))}
<nav class="pager" aria-label="${t('pages_nav')}">
${after !== '' ? html`<a href="${SECTION}?${keep.toString()}">${BACK_ARROW} ${t('first_page')}</a>` : ''}
${last && list.has_more ? html`<a href="${SECTION}?${new URLSearchParams([...keep, ['starting_after', last.merchant_id]]).toString()}">${t('older_page')} ${FORWARD_ARROW}</a>` : ''}
</nav></div>`,
      );
    }),
  );

  router.get(
    '/merchants/:id',
    signedIn(deps, 'ops', operators, async (req, viewer) => showMerchant(opsPage(deps, viewer), merchantIdOf(req))),
  );

  /** A change to one merchant: its command's answer shown on the merchant's page, or the service's refusal with its status. */
  const change = (path: string, work: (view: OpsPage, merchantId: string, form: unknown) => Promise<Html>) =>
    router.post(
      `/merchants/:id/${path}`,
      formBody,
      signedIn(deps, 'ops', operators, async (req, viewer) => {
        const view = opsPage(deps, viewer);
        const merchantId = merchantIdOf(req);
        return acting(
          async (message, status) => {
            try {
              return await showMerchant(view, merchantId, message, status);
            } catch (err) {
              // The change is made: its answer (a live key, shown once) reaches the operator even when the merchant cannot be read back now.
              if (message === undefined || status !== undefined) throw err;
              deps.log.warn({ merchantId, err: describeError(err) }, 'merchant not read back after a change');
              return view.render(SECTION, viewer.t('merchants_section'), html`<h1>${merchantId}</h1>${message}<p><a href="${SECTION}/${merchantId}">${viewer.t('back_link')}</a></p>`);
            }
          },
          () => work(view, merchantId, req.body),
          viewer.language,
        );
      }),
    );

  change('approve-kyb', async (view, merchantId) => {
    const { t } = view.viewer;
    const approved = await view.command('merchant.approve_kyb', { merchant_id: merchantId });
    const handOver = t('hand_over_key');
    const key = shownSecret(t('live_secret_key'), approved.live_secret_key, handOver, t);
    // The live webhook endpoint follows from merchant.kyb_approved (the dispatcher provisions it); its secret is the merchant's to reveal in their dashboard, not shown here.
    return html`${notice('ok', t('kyb_approved'))}${key}`;
  });

  change('suspend', async (view, merchantId) => {
    const done = await view.command('merchant.suspend', { merchant_id: merchantId });
    return notice('ok', view.viewer.t('merchant_now_suspended', { status: done.status }));
  });

  change('reactivate', async (view, merchantId) => {
    const done = await view.command('merchant.reactivate', { merchant_id: merchantId });
    return notice('ok', view.viewer.t('merchant_reactivated', { status: done.status }));
  });

  change('limits', async (view, merchantId, form) => {
    const mode = field(form, 'mode');
    if (mode !== 'test' && mode !== 'live') throw validationError([{ field: 'mode', code: 'invalid', message: 'mode must be test or live.' }]);
    const budgets = Object.fromEntries(BUDGETS.map((name) => [name, budget(form, name, view.viewer.t)]).filter(([, value]) => value !== undefined)) as Partial<Record<(typeof BUDGETS)[number], number>>;
    const set = await view.command('limits.set', { merchant_id: merchantId, mode, ...budgets });
    return notice('ok', view.viewer.t('limits_set', { mode: set.mode, account: String(set.account), create: String(set.create), refund: String(set.refund) }));
  });

  change('fees', async (view, merchantId, form) => {
    const set = await view.command('fees.set', { merchant_id: merchantId, percent: field(form, 'percent'), fixed: field(form, 'fixed') });
    return notice('ok', view.viewer.t('fees_set', { fees: `${set.percent} % + ${set.fixed} TND` }));
  });

  change('terminal', async (view, merchantId, form) => {
    // The password goes to the adapter as typed (a secret is never trimmed), and nowhere else.
    const password = (form as Record<string, unknown> | undefined)?.['password'];
    const set = await view.command('terminal.set', {
      merchant_id: merchantId,
      mode: 'live',
      user: field(form, 'user'),
      password: typeof password === 'string' ? password : '',
      active: field(form, 'active') === 'on',
    });
    return notice('ok', view.viewer.t(set.active ? 'terminal_set_active' : 'terminal_set_inactive', { user: set.user }));
  });
}

async function showMerchant(view: OpsPage, merchantId: string, message?: Html, status?: number) {
  const { t, csrf } = view.viewer;
  const merchant: MerchantDetail = await view.command('merchant.get', { merchant_id: merchantId });
  const [fees, ...terminals] = await Promise.all([
    view.command('fees.get', { merchant_id: merchantId }),
    ...MODES.map((mode) => view.command('terminal.get', { merchant_id: merchantId, mode })),
  ]);
  const action = (path: string) => `${SECTION}/${merchantId}/${path}`;
  const approved = merchant.kyb_approved_at !== null;
  const statusForm =
    merchant.status === 'active'
      ? html`<form method="post" action="${action('suspend')}" class="inline" data-confirm="${t('suspend_confirm')}">${csrfField(csrf)}<button type="submit" class="danger">${t('suspend_button')}</button></form>`
      : html`<form method="post" action="${action('reactivate')}" class="inline">${csrfField(csrf)}<button type="submit">${t('reactivate_button')}</button></form>`;
  return view.render(
    SECTION,
    `${t('merchants_section')}: ${merchant.name}`,
    html`<p><a href="${SECTION}">${BACK_ARROW} ${t('merchants_section')}</a></p>
<h1>${merchant.name} <span class="badge" data-field="status">${merchant.status}</span></h1>
${message ?? ''}
<div class="card"><dl class="facts">
<dt>${t('id')}</dt><dd><code>${merchant.merchant_id}</code></dd>
<dt>${t('prefix')}</dt><dd>${merchant.order_prefix}</dd>
<dt>${t('status')}</dt><dd>${merchant.status}</dd>
<dt>${t('kyb')}</dt><dd data-field="kyb">${approved ? html`${t('approved')} ${when(merchant.kyb_approved_at)}` : t('pending')}</dd>
<dt>${t('modes')}</dt><dd data-field="modes">${approved ? `${t('test_mode')}, ${t('live_mode')}` : html`${t('test_mode')} <span class="muted">(${t('live_mode')}: ${t('verification_pending')})</span>`}</dd>
<dt>${t('created')}</dt><dd>${when(merchant.created_at)}</dd>
</dl>
<p class="row">${
      approved
        ? ''
        : html`<form method="post" action="${action('approve-kyb')}" class="inline" data-confirm="${t('approve_kyb_confirm')}">${csrfField(csrf)}<button type="submit">${t('approve_kyb_button')}</button></form> `
    }${statusForm} <a href="${OPS}/audit-log?merchant=${merchant.merchant_id}">${t('audit_log_section')}</a></p></div>
<section class="card" aria-labelledby="limits"><h2 id="limits">${t('limits')}</h2>
<p class="muted">${t('limits_note')}</p>
${table(
  [t('mode'), ...BUDGETS.map((name) => t(BUDGET_NAMES[name].heading))],
  MODES.map((mode) => html`<tr data-mode="${mode}"><td>${t(MODE_NAMES[mode])}</td>${BUDGETS.map((name) => html`<td class="num" data-field="${mode}-${name}">${merchant.limits[mode][name]}</td>`)}</tr>`),
  '',
  [1, 2, 3],
)}
${MODES.map(
  (mode) => html`<form method="post" action="${action('limits')}" class="row" aria-label="${t('limits')} ${mode}">${csrfField(csrf)}<input type="hidden" name="mode" value="${mode}">
<strong>${t(MODE_NAMES[mode])}</strong>${BUDGETS.map((name) => html`<label>${`${t(BUDGET_NAMES[name].label)} (${t(MODE_NAMES[mode])})`} <input name="${name}" inputmode="numeric" pattern="[0-9]*" size="6" placeholder="${merchant.limits[mode][name]}"></label>`)}
<button type="submit" class="secondary">${t(mode === 'live' ? 'save_live_limits' : 'save_test_limits')}</button></form>`,
)}</section>
<section class="card" aria-labelledby="fees"><h2 id="fees">${t('fees')}</h2>
<p data-field="fees"><bdi>${fees.percent} % + ${fees.fixed} TND</bdi> ${fees.default ? html`<span class="muted">(${t('default_fees')})</span>` : ''}</p>
<form method="post" action="${action('fees')}" class="row">${csrfField(csrf)}
<label>${t('percent')} <input name="percent" inputmode="decimal" required value="${fees.percent}"></label>
<label>${t('fixed_fee')} <input name="fixed" inputmode="decimal" required value="${fees.fixed}"></label>
<button type="submit" class="secondary">${t('save_fees')}</button></form></section>
<section class="card" aria-labelledby="terminal"><h2 id="terminal">${t('terminal')}</h2>
${table([t('mode'), t('terminal')], terminals.map((terminal) => terminalRow(terminal, t)), '')}
<form method="post" action="${action('terminal')}" class="row" aria-label="${t('terminal')} ${t('mode_live_word')}" autocomplete="off">${csrfField(csrf)}
<strong>${t('mode_live_word')}</strong>
<label>${t('terminal_user')} <input name="user" required maxlength="100" autocomplete="off" value="${terminals[1]?.user_name ?? ''}"></label>
<label>${t('terminal_password')} <input type="password" name="password" required maxlength="200" autocomplete="new-password"></label>
<label class="inline"><input type="checkbox" name="active"${terminals[1]?.active === false ? '' : html` checked`}> ${t('active')}</label>
<button type="submit" class="secondary">${t('save_terminal')}</button></form>
<p class="muted">${t('terminal_note')}</p></section>`,
    status,
  );
}

function terminalRow(terminal: CommandReply<'terminal.get'>, t: Words): Html {
  const user = html`<code>${terminal.user_name}</code>`;
  const state =
    terminal.mode === 'test'
      ? t('sandbox_terminal')
      : terminal.configured
        ? phrase(t, terminal.active === false ? 'terminal_configured_inactive' : 'terminal_configured', { user })
        : html`<span class="muted">${t('terminal_not_configured')}</span>`;
  return html`<tr><td>${t(MODE_NAMES[terminal.mode])}</td><td data-field="terminal-${terminal.mode}">${state}</td></tr>`;
}
