/**
 * The pages of account links (D14, D20): the form that sets a password from a
 * setup link or a reset link, "Forgot password?" and its answers, and the
 * pages of a setup or reset link that no longer works.
 */
import type { Language } from '@gateway/i18n';
import { html, type Html } from '@gateway/runtime';
import type { AccountLink } from '../db/account-link.repository.js';
import { languageSwitch, notice } from './layout.js';
import { signInCard } from './sign-in.page.js';
import { wordsIn } from './texts/catalogue.js';

/**
 * The form that sets a password with the account link whose token it
 * carries: "Set password" for a setup link, "Choose a new password" for a
 * reset link; with the refusal of the last try (its English words, shown in
 * the page's language).
 */
export function newPasswordPage(language: Language, base: string, kind: AccountLink, token: string, refusal?: string): Html {
  const t = wordsIn(language);
  const title = kind === 'setup' ? t('set_password') : t('choose_new_password');
  return signInCard(
    language,
    base,
    title,
    html`<h1>${title}</h1>
${refusal ? notice('error', t.known(refusal)) : ''}
<form method="post" action="${base}/${kind}" class="stack">
<input type="hidden" name="token" value="${token}">
<label>${t('new_password')} <input type="password" name="password" autocomplete="new-password" minlength="12" required></label>
<p class="muted">${t('password_length_hint')}</p>
<button type="submit">${t('set_password')}</button>
</form>`,
  );
}

/** "Forgot password?": the email to mail a reset link to. */
export function forgotPasswordPage(language: Language, base: string): Html {
  const t = wordsIn(language);
  return signInCard(
    language,
    base,
    t('forgot_password'),
    html`<h1>${t('forgot_password')}</h1>
<p>${t('forgot_password_intro')}</p>
<form method="post" action="${base}/forgot-password" class="stack">
<label>${t('email')} <input type="email" name="email" autocomplete="username" required maxlength="254"></label>
<button type="submit">${t('send_link_button')}</button>
</form>
<p><a href="${base}/sign-in">${t('back_to_sign_in')}</a></p>
${languageSwitch({ language, t, base }, `${base}/forgot-password`)}`,
  );
}

/** The answer to "Forgot password?" past the address's bound. */
export function tooManyResetRequestsPage(language: Language, base: string): Html {
  const t = wordsIn(language);
  return signInCard(language, base, t('forgot_password'), html`<h1>${t('forgot_password')}</h1>${notice('error', t('too_many_reset_requests'))}`);
}

/** The answer to "Forgot password?", the same whether or not the address has an account. */
export function checkYourMailPage(language: Language, base: string): Html {
  const t = wordsIn(language);
  return signInCard(
    language,
    base,
    t('check_your_mail'),
    html`<h1>${t('check_your_mail')}</h1>
<p>${t('reset_link_on_its_way')}</p>
<p><a href="${base}/sign-in">${t('back_to_sign_in')}</a></p>`,
  );
}

/** A setup link used, lapsed, spent or unknown: whoever invited the person makes a new one. */
export function setupLinkGonePage(language: Language, base: string): Html {
  const t = wordsIn(language);
  return signInCard(
    language,
    base,
    t('account_link_gone_title'),
    html`<h1>${t('account_link_gone_title')}</h1>
${notice('error', t('setup_link_gone'))}
<p><a href="${base}/sign-in">${t('back_to_sign_in')}</a></p>`,
  );
}

/** A reset link used, lapsed or unknown, with a way to ask for a new one. */
export function resetLinkGonePage(language: Language, base: string): Html {
  const t = wordsIn(language);
  return signInCard(
    language,
    base,
    t('account_link_gone_title'),
    html`<h1>${t('account_link_gone_title')}</h1>
${notice('error', t('reset_link_gone'))}
<p><a href="${base}/forgot-password">${t('ask_for_new_link')}</a></p>`,
  );
}
