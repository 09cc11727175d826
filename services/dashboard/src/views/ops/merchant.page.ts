/**
 * One merchant in the console (D15): its business verification, limits per
 * mode, fees and terminals, and the forms of the changes gateway-admin makes
 * (approve KYB, suspend, reactivate, limits, fees, live terminal).
 */
import type { CommandReply, MerchantDetail, Mode } from '@gateway/contracts';
import { html, type Html } from '@gateway/runtime';
import { BACK_ARROW, csrfField, notice, phrase, table, when, type PageView, type Reader } from '../layout.js';
import { OPS } from '../paths.js';
import { shownSecret } from '../shown-secret.js';
import type { TextKey, Words } from '../texts/catalogue.js';
import { MERCHANTS } from './merchants.page.js';

const MODES: readonly Mode[] = ['test', 'live'];
/** A merchant's rate budgets, per mode, as `limits set` takes them. */
export const BUDGETS = ['account', 'create', 'refund'] as const;
export type Budget = (typeof BUDGETS)[number];
/** Each budget's name in a field's label ("create (test)") and as a column heading. */
const BUDGET_NAMES: Readonly<Record<Budget, { label: TextKey; heading: TextKey }>> = {
  account: { label: 'budget_account', heading: 'budget_account_heading' },
  create: { label: 'budget_create', heading: 'budget_create_heading' },
  refund: { label: 'budget_refund', heading: 'budget_refund_heading' },
};
const MODE_NAMES: Readonly<Record<Mode, TextKey>> = { test: 'mode_test_word', live: 'mode_live_word' };

/** What the merchant's page shows: the merchant, its fees, and its terminal of each mode (test, then live). */
interface MerchantView {
  merchant: MerchantDetail;
  fees: CommandReply<'fees.get'>;
  terminals: readonly CommandReply<'terminal.get'>[];
}

/** The merchant's page, with the outcome of a change when there is one. */
export function merchantPage(reader: Reader, view: MerchantView, message?: Html): PageView {
  const { t, csrf } = reader;
  const { merchant, fees, terminals } = view;
  const action = (path: string) => `${MERCHANTS}/${merchant.merchant_id}/${path}`;
  const approved = merchant.kyb_approved_at !== null;
  const statusForm =
    merchant.status === 'active'
      ? html`<form method="post" action="${action('suspend')}" class="inline" data-confirm="${t('suspend_confirm')}">${csrfField(csrf)}<button type="submit" class="danger">${t('suspend_button')}</button></form>`
      : html`<form method="post" action="${action('reactivate')}" class="inline">${csrfField(csrf)}<button type="submit">${t('reactivate_button')}</button></form>`;
  const body = html`<p><a href="${MERCHANTS}">${BACK_ARROW} ${t('merchants_section')}</a></p>
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
<p class="muted">${t('terminal_note')}</p></section>`;
  return { title: `${t('merchants_section')}: ${merchant.name}`, body };
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

/** A change made whose merchant could not be read back: its answer (a live key, shown once) all the same, and a way back to the merchant. */
export function changedMerchantPage(reader: Reader, merchantId: string, message: Html): PageView {
  return { title: reader.t('merchants_section'), body: html`<h1>${merchantId}</h1>${message}<p><a href="${MERCHANTS}/${merchantId}">${reader.t('back_link')}</a></p>` };
}

/** Business verification approved: live mode open, and the live secret key, shown this once. */
export function kybApprovedNotice(t: Words, liveSecretKey: string): Html {
  const key = shownSecret(t('live_secret_key'), liveSecretKey, t('hand_over_key'), t);
  // The live webhook endpoint follows from merchant.kyb_approved (the dispatcher provisions it); its secret is the merchant's to reveal in their dashboard, not shown here.
  return html`${notice('ok', t('kyb_approved'))}${key}`;
}
