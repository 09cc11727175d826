/** Exchange rates (D14, INTERFACE 2.8): the session service's rates of the mode in view, set and removed by developers and owners. */
import type { CommandReply } from '@gateway/contracts';
import { html, type Html } from '@gateway/runtime';
import { csrfField, modeBadge, table, when, type PageView, type Reader } from '../layout.js';
import { BASE } from '../paths.js';

const RATES = `${BASE}/exchange-rates`;

/** The rates page, with the forms when `developer`, and the outcome of a change when there is one. */
export function exchangeRatesPage(reader: Reader, rates: CommandReply<'rate.list'>, developer: boolean, message?: Html): PageView {
  const { t } = reader;
  const rows = rates.data.map(
    (r) => html`<tr><td>${r.currency}</td><td class="num">${r.rate}</td><td>${when(r.updated_at)}</td><td>${
      developer
        ? html`<form method="post" action="${RATES}/remove" class="inline" data-confirm="${t('remove_rate_confirm')}">${csrfField(reader.csrf)}<input type="hidden" name="currency" value="${r.currency}"><button type="submit" class="danger">${t('remove_button')}</button></form>`
        : ''
    }</td></tr>`,
  );
  const body = html`<h1>${t('exchange_rates_section')} ${modeBadge(reader)}</h1>
${message ?? ''}
<div class="card">${table([t('currency'), `${t('rate')} (TND)`, t('created'), ''], rows, t('no_rates'), [1])}</div>
${
  developer
    ? html`<form method="post" action="${RATES}" class="row card">${csrfField(reader.csrf)}
<label>${t('currency')} <input name="currency" required maxlength="3" size="4" autocapitalize="characters"></label>
<label>${t('rate')} <input name="rate" required inputmode="decimal" placeholder="3.350000"></label>
<button type="submit">${t('save_button')}</button></form>`
    : ''
}
<p class="muted">${t('rates_note')}</p>`;
  return { title: t('exchange_rates_section'), body };
}
