/** One webhook delivery attempt (D14): what was sent, what came back, and "Resend" for developers and owners. */
import type { CommandReply } from '@gateway/contracts';
import { html, type Html } from '@gateway/runtime';
import { BACK_ARROW, csrfField, notice, phrase, when, type PageView, type Reader } from '../layout.js';
import { BASE } from '../paths.js';
import type { Words } from '../texts/catalogue.js';
import { WEBHOOKS } from './webhooks.page.js';

/** The attempt's page, with "Resend" when `developer`, and the outcome of a change when there is one. */
export function webhookAttemptPage(reader: Reader, attempt: CommandReply<'webhook.attempt'>, developer: boolean, message?: Html): PageView {
  const { t } = reader;
  const body = html`<p><a href="${WEBHOOKS}">${BACK_ARROW} ${t('webhooks_section')}</a></p>
<h1>${attempt.event} <span class="badge">${attempt.status}</span></h1>
${message ?? ''}
<div class="card"><dl class="facts">
<dt>${t('id')}</dt><dd><code>${attempt.id}</code></dd><dt>${t('webhook_id')}</dt><dd><code>${attempt.event_id}</code></dd>
<dt>${t('session')}</dt><dd><a href="${BASE}/payments/${attempt.session_id}"><code>${attempt.session_id}</code></a></dd>
<dt>${t('url')}</dt><dd><code>${attempt.url}</code></dd><dt>${t('attempt')}</dt><dd>${attempt.attempt_number}</dd>
<dt>${t('http_code')}</dt><dd>${attempt.http_status_code ?? '—'}</dd>
<dt>${t('time')}</dt><dd>${when(attempt.created_at)} ${attempt.response_time_ms !== null ? html`(${t('response_time', { ms: String(attempt.response_time_ms) })})` : ''}</dd>
<dt>${t('next_retry')}</dt><dd>${when(attempt.next_retry_at)}</dd>
${attempt.error_message ? html`<dt>${t('error')}</dt><dd>${attempt.error_message}</dd>` : ''}
</dl></div>
<section class="card"><h2>${t('payload')}</h2><pre>${attempt.payload}</pre></section>
<section class="card"><h2>${t('response')}</h2>${attempt.response_body === null ? html`<p class="muted">—</p>` : html`<pre>${attempt.response_body}</pre>`}</section>
${
  developer
    ? html`<form method="post" action="${WEBHOOKS}/attempts/${attempt.id}/resend" class="row">${csrfField(reader.csrf)}<button type="submit">${t('resend_button')}</button></form>`
    : ''
}`;
  return { title: `${attempt.event} · ${t('webhooks_section')}`, body };
}

/** A delivery sent again: the new attempt, linked. */
export function sentAgainNotice(t: Words, deliveryId: string): Html {
  return notice('ok', phrase(t, 'sent_again', { delivery: html`<a href="${WEBHOOKS}/attempts/${deliveryId}">${deliveryId}</a>` }));
}
