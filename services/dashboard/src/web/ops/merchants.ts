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
import type { Text, Translate } from '../i18n.js';
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
const BUDGET_NAMES: Readonly<Record<(typeof BUDGETS)[number], { label: Text; heading: Text }>> = {
  account: { label: 'account', heading: 'Account' },
  create: { label: 'create', heading: 'Create' },
  refund: { label: 'refund', heading: 'Refund' },
};
const MODE_NAMES: Readonly<Record<Mode, Text>> = { test: 'test', live: 'live' };

/** The merchant an address names; an id that cannot be one is no merchant, as an unknown one is not. */
function merchantIdOf(req: Request): string {
  const id = String(req.params['id']);
  if (!MERCHANT_ID.test(id)) throw new AppError('not-found', 'No such merchant.');
  return id;
}

/** A budget field: empty keeps the budget in force; otherwise a whole number of requests per second, as `limits set` takes. */
function budget(form: unknown, name: (typeof BUDGETS)[number], t: Translate): number | undefined {
  const value = field(form, name);
  if (value === '') return undefined;
  if (!/^\d{1,9}$/.test(value)) throw validationError([{ field: name, code: 'invalid', message: t('{budget} must be a whole number of requests per second.', { budget: name }) }]);
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
<td><span class="badge">${m.status}</span></td><td>${m.kyb_approved_at ? when(m.kyb_approved_at) : t('Pending')}</td><td>${when(m.created_at)}</td></tr>`,
      );
      return view.render(
        SECTION,
        t('Merchants'),
        html`<h1>${t('Merchants')}</h1>
<form method="get" action="${SECTION}" class="row" role="search">
<label>${t('Search')} <input name="q" value="${search}" maxlength="200" placeholder="${t('Name')} / mer_…"></label>
<label>${t('Status')} <select name="status"><option value="">${t('Any status')}</option>${(['active', 'suspended'] as const).map(
          (s) => html`<option value="${s}"${s === status ? html` selected` : ''}>${t(s)}</option>`,
        )}</select></label>
<button type="submit">${t('Filter')}</button>
</form>
<div class="card">${table([t('Name'), t('ID'), t('Prefix'), t('Status'), t('KYB'), t('Created')], rows, t('No merchant matches.'))}
<nav class="pager" aria-label="${t('Pages')}">
${after !== '' ? html`<a href="${SECTION}?${keep.toString()}">${BACK_ARROW} ${t('First page')}</a>` : ''}
${last && list.has_more ? html`<a href="${SECTION}?${new URLSearchParams([...keep, ['starting_after', last.merchant_id]]).toString()}">${t('Older')} ${FORWARD_ARROW}</a>` : ''}
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
              return view.render(SECTION, viewer.t('Merchants'), html`<h1>${merchantId}</h1>${message}<p><a href="${SECTION}/${merchantId}">${viewer.t('Back')}</a></p>`);
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
    const handOver = t('This is the only time it is shown: hand it to the merchant over a safe channel (never plain email or chat), then leave this page.');
    const key = shownSecret(t('Live secret key'), approved.live_secret_key, handOver, t);
    // The live webhook endpoint follows from merchant.kyb_approved (the dispatcher provisions it); its secret is the merchant's to reveal in their dashboard, not shown here.
    return html`${notice('ok', t('Business verification approved: live mode is open; its webhook endpoint follows in a moment.'))}${key}`;
  });

  change('suspend', async (view, merchantId) => {
    const done = await view.command('merchant.suspend', { merchant_id: merchantId });
    return notice('ok', view.viewer.t('The merchant is {status}: its API keys are refused until it is reactivated.', { status: done.status }));
  });

  change('reactivate', async (view, merchantId) => {
    const done = await view.command('merchant.reactivate', { merchant_id: merchantId });
    return notice('ok', view.viewer.t('The merchant is {status} again.', { status: done.status }));
  });

  change('limits', async (view, merchantId, form) => {
    const mode = field(form, 'mode');
    if (mode !== 'test' && mode !== 'live') throw validationError([{ field: 'mode', code: 'invalid', message: 'mode must be test or live.' }]);
    const budgets = Object.fromEntries(BUDGETS.map((name) => [name, budget(form, name, view.viewer.t)]).filter(([, value]) => value !== undefined)) as Partial<Record<(typeof BUDGETS)[number], number>>;
    const set = await view.command('limits.set', { merchant_id: merchantId, mode, ...budgets });
    return notice('ok', view.viewer.t('Limits in {mode} mode: account {account}, create {create}, refund {refund} requests per second.', { mode: set.mode, account: set.account, create: set.create, refund: set.refund }));
  });

  change('fees', async (view, merchantId, form) => {
    const set = await view.command('fees.set', { merchant_id: merchantId, percent: field(form, 'percent'), fixed: field(form, 'fixed') });
    return notice('ok', view.viewer.t('Fees: {fees} per payment.', { fees: `${set.percent} % + ${set.fixed} TND` }));
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
    return notice('ok', view.viewer.t(set.active ? 'Live terminal set: user {user}, active.' : 'Live terminal set: user {user}, inactive.', { user: set.user }));
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
      ? html`<form method="post" action="${action('suspend')}" class="inline" data-confirm="${t('Suspend this merchant? Its API keys are refused at once.')}">${csrfField(csrf)}<button type="submit" class="danger">${t('Suspend')}</button></form>`
      : html`<form method="post" action="${action('reactivate')}" class="inline">${csrfField(csrf)}<button type="submit">${t('Reactivate')}</button></form>`;
  return view.render(
    SECTION,
    `${t('Merchants')}: ${merchant.name}`,
    html`<p><a href="${SECTION}">${BACK_ARROW} ${t('Merchants')}</a></p>
<h1>${merchant.name} <span class="badge" data-field="status">${merchant.status}</span></h1>
${message ?? ''}
<div class="card"><dl class="facts">
<dt>${t('ID')}</dt><dd><code>${merchant.merchant_id}</code></dd>
<dt>${t('Prefix')}</dt><dd>${merchant.order_prefix}</dd>
<dt>${t('Status')}</dt><dd>${merchant.status}</dd>
<dt>${t('KYB')}</dt><dd data-field="kyb">${approved ? html`${t('Approved')} ${when(merchant.kyb_approved_at)}` : t('Pending')}</dd>
<dt>${t('Modes')}</dt><dd data-field="modes">${approved ? `${t('Test mode')}, ${t('Live mode')}` : html`${t('Test mode')} <span class="muted">(${t('Live mode')}: ${t('Verification pending')})</span>`}</dd>
<dt>${t('Created')}</dt><dd>${when(merchant.created_at)}</dd>
</dl>
<p class="row">${
      approved
        ? ''
        : html`<form method="post" action="${action('approve-kyb')}" class="inline" data-confirm="${t('Approve this business and issue its live key?')}">${csrfField(csrf)}<button type="submit">${t('Approve KYB')}</button></form> `
    }${statusForm} <a href="${OPS}/audit-log?merchant=${merchant.merchant_id}">${t('Audit log')}</a></p></div>
<section class="card" aria-labelledby="limits"><h2 id="limits">${t('Limits')}</h2>
<p class="muted">${t("Requests per second allowed to the merchant's API keys in each mode; an empty field keeps the value in force.")}</p>
${table(
  [t('Mode'), ...BUDGETS.map((name) => t(BUDGET_NAMES[name].heading))],
  MODES.map((mode) => html`<tr data-mode="${mode}"><td>${t(MODE_NAMES[mode])}</td>${BUDGETS.map((name) => html`<td class="num" data-field="${mode}-${name}">${merchant.limits[mode][name]}</td>`)}</tr>`),
  '',
  [1, 2, 3],
)}
${MODES.map(
  (mode) => html`<form method="post" action="${action('limits')}" class="row" aria-label="${t('Limits')} ${mode}">${csrfField(csrf)}<input type="hidden" name="mode" value="${mode}">
<strong>${t(MODE_NAMES[mode])}</strong>${BUDGETS.map((name) => html`<label>${`${t(BUDGET_NAMES[name].label)} (${t(MODE_NAMES[mode])})`} <input name="${name}" inputmode="numeric" pattern="[0-9]*" size="6" placeholder="${merchant.limits[mode][name]}"></label>`)}
<button type="submit" class="secondary">${t(mode === 'live' ? 'Save live' : 'Save test')}</button></form>`,
)}</section>
<section class="card" aria-labelledby="fees"><h2 id="fees">${t('Fees')}</h2>
<p data-field="fees"><bdi>${fees.percent} % + ${fees.fixed} TND</bdi> ${fees.default ? html`<span class="muted">(${t('default')})</span>` : ''}</p>
<form method="post" action="${action('fees')}" class="row">${csrfField(csrf)}
<label>${t('Percent')} <input name="percent" inputmode="decimal" required value="${fees.percent}"></label>
<label>${t('Fixed (TND)')} <input name="fixed" inputmode="decimal" required value="${fees.fixed}"></label>
<button type="submit" class="secondary">${t('Save fees')}</button></form></section>
<section class="card" aria-labelledby="terminal"><h2 id="terminal">${t('Terminal')}</h2>
${table([t('Mode'), t('Terminal')], terminals.map((terminal) => terminalRow(terminal, t)), '')}
<form method="post" action="${action('terminal')}" class="row" aria-label="${t('Terminal')} ${t('live')}" autocomplete="off">${csrfField(csrf)}
<strong>${t('live')}</strong>
<label>${t('Terminal user')} <input name="user" required maxlength="100" autocomplete="off" value="${terminals[1]?.user_name ?? ''}"></label>
<label>${t('Terminal password')} <input type="password" name="password" required maxlength="200" autocomplete="new-password"></label>
<label class="inline"><input type="checkbox" name="active"${terminals[1]?.active === false ? '' : html` checked`}> ${t('Active')}</label>
<button type="submit" class="secondary">${t('Save terminal')}</button></form>
<p class="muted">${t('Test mode always pays through the built-in sandbox terminal. The password is never shown back.')}</p></section>`,
    status,
  );
}

function terminalRow(terminal: CommandReply<'terminal.get'>, t: Translate): Html {
  const user = html`<code>${terminal.user_name}</code>`;
  const state =
    terminal.mode === 'test'
      ? t('Built-in sandbox terminal')
      : terminal.configured
        ? phrase(t, terminal.active === false ? 'Configured, user {user}, inactive' : 'Configured, user {user}', { user })
        : html`<span class="muted">${t('Not configured')}</span>`;
  return html`<tr><td>${t(MODE_NAMES[terminal.mode])}</td><td data-field="terminal-${terminal.mode}">${state}</td></tr>`;
}
