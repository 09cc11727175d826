/**
 * The Security page of both doors (D14, D15): two-step sign-in on (since
 * when, and a way to turn it off unless operators must keep it), being set
 * up (the secret and its otpauth:// URI, and the code that confirms it), or
 * off; and the recovery codes, shown once.
 */
import { html, type Html } from '@gateway/runtime';
import { csrfField, notice, phrase, when, type PageView, type Reader } from './layout.js';
import type { Words } from './texts/catalogue.js';

/** The second factor of the person in view. */
interface TwoStepState {
  /** Since when it is on; absent while it is off. */
  enabledAt?: Date;
  /** The secret being set up, and the URI an authenticator app reads. */
  pending?: { secret: string; uri: string };
  /** Whether the person's door requires it (operators, where the console does). */
  required: boolean;
}

/** The page, under `section` (the door's /security), with the outcome of a change when there is one. */
export function securityPage(reader: Reader, section: string, state: TwoStepState, message?: Html): PageView {
  const { t } = reader;
  let body: Html;
  if (state.enabledAt) {
    body = html`<p>${phrase(t, 'two_step_state_since', { state: html`<strong>${t('two_step_on')}</strong>`, date: when(state.enabledAt.toISOString()) })}</p>
${
  state.required
    ? html`<p class="muted">${t('operators_keep_it_on')}</p>`
    : html`<form method="post" action="${section}/off" class="stack" data-confirm="${t('turn_off_confirm')}">${csrfField(reader.csrf)}
<label>${t('current_password')} <input type="password" name="password" autocomplete="current-password" required></label>
<button type="submit" class="danger">${t('turn_off_button')}</button></form>`
}`;
  } else if (state.pending) {
    body = html`<p>${t('add_key_to_app')}</p>
<p><code class="secret" id="totp-secret">${state.pending.secret}</code></p>
<p class="muted"><code>${state.pending.uri}</code></p>
<form method="post" action="${section}/confirm" class="stack">${csrfField(reader.csrf)}
<label>${t('totp_code')} <input name="code" inputmode="numeric" autocomplete="one-time-code" required></label>
<button type="submit">${t('turn_on_button')}</button></form>`;
  } else {
    body = html`${state.required ? notice('warn', t('console_needs_two_step')) : ''}
<p>${phrase(t, 'two_step_state', { state: html`<strong>${t('two_step_off')}</strong>` })}</p>
<form method="post" action="${section}/begin">${csrfField(reader.csrf)}<button type="submit">${t('turn_on_button')}</button></form>`;
  }
  return { title: t('security_section'), body: html`<h1>${t('security_section')}</h1>${message ?? ''}<section class="card"><h2>${t('two_step_sign_in')}</h2>${body}</section>` };
}

/** The recovery codes of a second factor just turned on: shown this once. */
export function recoveryCodesNotice(t: Words, codes: readonly string[]): Html {
  return notice('warn', html`<p><strong>${t('recovery_codes')}</strong>: ${t('recovery_codes_note')}</p><pre>${codes.join('\n')}</pre>`);
}
