/** Signing in to a door (D14, D15): the sign-in form and the second factor's step, each a card on a bare page. */
import type { Language } from '@gateway/i18n';
import { html, type Html, type HtmlValue } from '@gateway/runtime';
import type { Door } from '../db/person.repository.js';
import { barePage, csrfField, languageSwitch, notice } from './layout.js';
import { wordsIn } from './texts/catalogue.js';

/** A signed-out page of the door at `base`: a card on a bare page. */
export function signInCard(language: Language, base: string, title: string, body: HtmlValue): Html {
  return barePage(language, base, title, html`<div class="signin card">${body}</div>`);
}

/**
 * The sign-in form of `door`: with the refusal of the last try (its English
 * words, shown in the page's language), or, after a password reset, the
 * invitation to sign in with the new one.
 */
export function signInPage(language: Language, door: Door, form: { next: string; email?: string; refusal?: string; resetDone?: boolean }): Html {
  const base = `/${door}`;
  const t = wordsIn(language);
  return signInCard(
    language,
    base,
    t('sign_in'),
    html`<h1>${door === 'ops' ? t('operations_console_name') : t('dashboard_name')}</h1>
${form.refusal ? notice('error', t.known(form.refusal)) : ''}
${!form.refusal && form.resetDone ? notice('ok', t('new_password_set')) : ''}
<form method="post" action="${base}/sign-in" class="stack">
<input type="hidden" name="next" value="${form.next}">
<label>${t('email')} <input type="email" name="email" autocomplete="username" required value="${form.email ?? ''}"></label>
<label>${t('password')} <input type="password" name="password" autocomplete="current-password" required></label>
<button type="submit">${t('sign_in')}</button>
</form>
<p><a href="${base}/forgot-password">${t('forgot_password')}</a></p>
${languageSwitch({ language, t, base }, `${base}/sign-in`)}`,
  );
}

/** The second factor's step: a code from the authenticator app or a recovery code; after a wrong one, saying so. */
export function secondFactorPage(language: Language, base: string, form: { csrf: string; next: string; wrongCode?: boolean }): Html {
  const t = wordsIn(language);
  return signInCard(
    language,
    base,
    t('two_step_sign_in'),
    html`<h1>${t('two_step_sign_in')}</h1>
${form.wrongCode ? notice('error', t('second_factor_wrong')) : ''}
<form method="post" action="${base}/second-factor" class="stack">${csrfField(form.csrf)}
<input type="hidden" name="next" value="${form.next}">
<label>${t('totp_code')} <input name="code" inputmode="numeric" autocomplete="one-time-code" required></label>
<p class="muted">${t('second_factor_hint')}</p>
<button type="submit">${t('continue_button')}</button>
</form>`,
  );
}
