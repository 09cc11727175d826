/**
 * Signing in and out of a door (D14, D15): email and password, then the second
 * factor when the person has one; the setup link that sets a password; the
 * language switch; and the guard every signed-in page goes through.
 */
import type { Request, Response, Router } from 'express';
import { describeError } from '@gateway/observability';
import { AppError } from '@gateway/problem';
import { formBody as formParser, html, requestIdOf, type Html, type HtmlValue } from '@gateway/runtime';
import { LINK_GONE, passSecondFactor, passwordLinkIsLive, setPasswordWithLink, signIn, type Doer } from '../identity/accounts.js';
import { countResetRequest, mailPasswordReset } from '../identity/people-mail.js';
import type { Door } from '../identity/people.repository.js';
import { newToken, tokenHash } from '../identity/secrets.js';
import { STYLESHEET, SCRIPT } from './assets.js';
import {
  barePage,
  checkCsrf,
  clearSessionCookie,
  clientAddress,
  cookieName,
  currentSession,
  handle,
  languageOf,
  send,
  fromAnotherSite,
  LANGUAGE_COOKIE,
  setCookie,
  startSession,
  type DoorDeps,
  type Outcome,
  type Viewer,
} from './door.js';
import { isLanguage } from '@gateway/i18n';
import { wordsIn } from '../views/texts/catalogue.js';
import { csrfField, languageSwitch, notice } from './layout.js';

/** Form bodies: small, flat, few fields. */
export const formBody = formParser({ maxBytes: 16 * 1024, maxFields: 50 });

/** A path inside the door to go back to, never anywhere else. */
export function backWithin(base: string, value: unknown): string {
  return typeof value === 'string' && value.startsWith(`${base}/`) && !value.startsWith('//') && !/[\\\r\n]/.test(value) ? value : `${base}/`;
}

function text(form: unknown, field: string): string {
  const value = (form as Record<string, unknown> | undefined)?.[field];
  return typeof value === 'string' ? value : '';
}

/** The sign-in, second-factor, setup, language and sign-out routes of `door`, and its static assets. */
export function signInRoutes(deps: DoorDeps, door: Door, router: Router): void {
  const base = `/${door}`;
  const page = (req: Request, title: string, body: HtmlValue): Html => barePage(req, base, title, html`<div class="signin card">${body}</div>`);

  router.get('/assets/app.css', (_req, res) => {
    res.set('Cache-Control', 'public, max-age=300').type('text/css').send(STYLESHEET);
  });
  router.get('/assets/app.js', (_req, res) => {
    res.set('Cache-Control', 'public, max-age=300').type('text/javascript').send(SCRIPT);
  });

  const signInForm = (req: Request, problem?: string, email = ''): Html => {
    const language = languageOf(req);
    const t = wordsIn(language);
    return page(
      req,
      t('sign_in'),
      html`<h1>${door === 'ops' ? t('operations_console_name') : t('dashboard_name')}</h1>
${problem ? notice('error', t.known(problem)) : ''}
${!problem && req.query['reset'] === 'done' ? notice('ok', t('new_password_set')) : ''}
<form method="post" action="${base}/sign-in" class="stack">
<input type="hidden" name="next" value="${backWithin(base, req.query['next'])}">
<label>${t('email')} <input type="email" name="email" autocomplete="username" required value="${email}"></label>
<label>${t('password')} <input type="password" name="password" autocomplete="current-password" required></label>
<button type="submit">${t('sign_in')}</button>
</form>
<p><a href="${base}/forgot-password">${t('forgot_password')}</a></p>
${languageSwitch({ language, t, base }, `${base}/sign-in`)}`,
    );
  };

  router.get('/sign-in', handle(deps, base, async (req) => ({ page: signInForm(req) })));
  router.post(
    '/sign-in',
    formBody,
    handle(deps, base, async (req, res) => {
      // Sign-in has no session yet: what the browser says of the form's origin is the check that it is ours.
      if (fromAnotherSite(deps, req)) throw new AppError('forbidden', 'This form did not come from this site.');
      const email = text(req.body, 'email');
      try {
        const { person, secondFactor } = await signIn(deps.accounts, door, email, text(req.body, 'password'), clientAddress(deps, req));
        // D20: the person's mails are in the language they sign in with.
        await deps.accounts.people.setLanguage(person.id, languageOf(req));
        await startSession(deps, res, door, person, !secondFactor, clientAddress(deps, req));
        const next = backWithin(base, text(req.body, 'next'));
        return { redirect: secondFactor ? `${base}/second-factor?next=${encodeURIComponent(next)}` : next };
      } catch (err) {
        if (err instanceof AppError && err.code === 'unauthorized') return { page: signInForm(req, err.detail, email), status: 401 };
        throw err;
      }
    }),
  );

  const secondFactorForm = (req: Request, csrf: string, problem?: string): Html => {
    const t = wordsIn(languageOf(req));
    return page(
      req,
      t('two_step_sign_in'),
      html`<h1>${t('two_step_sign_in')}</h1>
${problem ? notice('error', problem) : ''}
<form method="post" action="${base}/second-factor" class="stack">${csrfField(csrf)}
<input type="hidden" name="next" value="${backWithin(base, req.query['next'] ?? text(req.body, 'next'))}">
<label>${t('totp_code')} <input name="code" inputmode="numeric" autocomplete="one-time-code" required></label>
<p class="muted">${t('second_factor_hint')}</p>
<button type="submit">${t('continue_button')}</button>
</form>`,
    );
  };

  router.get(
    '/second-factor',
    handle(deps, base, async (req) => {
      const current = await currentSession(deps, req, door);
      if (!current) return { redirect: `${base}/sign-in` };
      if (current.session.verified) return { redirect: `${base}/` };
      return { page: secondFactorForm(req, current.session.csrf_token) };
    }),
  );
  router.post(
    '/second-factor',
    formBody,
    handle(deps, base, async (req, res) => {
      const current = await currentSession(deps, req, door);
      if (!current || current.session.verified) return { redirect: `${base}/sign-in` };
      checkCsrf(deps, req, current.session.csrf_token);
      // Throttled apart from the passwords (a right password does not clear it), per address and per account: six digits must not be guessable by trying them all.
      if (!(await passSecondFactor(deps.accounts, door, current.person, text(req.body, 'code'), clientAddress(deps, req)))) {
        return { page: secondFactorForm(req, current.session.csrf_token, wordsIn(languageOf(req))('second_factor_wrong')), status: 401 };
      }
      // A new session id once fully signed in: the cookie that only knew the password is worth nothing.
      const id = newToken();
      if (!(await deps.accounts.people.verifySession(current.idHash, tokenHash(id), newToken()))) return { redirect: `${base}/sign-in` };
      setCookie(deps, res, cookieName(door), id, { path: base });
      return { redirect: backWithin(base, text(req.body, 'next')) };
    }),
  );

  router.post(
    '/sign-out',
    formBody,
    handle(deps, base, async (req, res) => {
      const current = await currentSession(deps, req, door);
      if (current) {
        checkCsrf(deps, req, current.session.csrf_token);
        await deps.accounts.people.endSession(current.idHash);
      }
      clearSessionCookie(deps, res, door);
      return { redirect: `${base}/sign-in` };
    }),
  );

  const setupForm = (req: Request, token: string, problem?: string): Html => {
    const t = wordsIn(languageOf(req));
    return page(
      req,
      t('set_password'),
      html`<h1>${t('set_password')}</h1>
${problem ? notice('error', problem) : ''}
<form method="post" action="${base}/setup" class="stack">
<input type="hidden" name="token" value="${token}">
<label>${t('new_password')} <input type="password" name="password" autocomplete="new-password" minlength="12" required></label>
<p class="muted">${t('password_length_hint')}</p>
<button type="submit">${t('set_password')}</button>
</form>`,
    );
  };
  router.get(
    '/setup',
    handle(deps, base, async (req) => {
      const token = typeof req.query['token'] === 'string' ? req.query['token'] : '';
      if (!(await passwordLinkIsLive(deps.accounts, 'setup', door, token))) throw new AppError('not-found', LINK_GONE.setup);
      return { page: setupForm(req, token) };
    }),
  );
  router.post(
    '/setup',
    formBody,
    handle(deps, base, async (req) => {
      if (fromAnotherSite(deps, req)) throw new AppError('forbidden', 'This form did not come from this site.');
      const token = text(req.body, 'token');
      try {
        await setPasswordWithLink(deps.accounts, 'setup', door, token, text(req.body, 'password'), clientAddress(deps, req));
      } catch (err) {
        if (err instanceof AppError && err.code === 'validation-error') return { page: setupForm(req, token, wordsIn(languageOf(req)).known(err.errors[0]?.message ?? err.detail)), status: 422 };
        throw err;
      }
      return { redirect: `${base}/sign-in` };
    }),
  );

  // ---------------------------------------------------------------- "Forgot password?" (D20)
  const forgotForm = (req: Request): Html => {
    const language = languageOf(req);
    const t = wordsIn(language);
    return page(
      req,
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
  };
  router.get('/forgot-password', handle(deps, base, async (req) => ({ page: forgotForm(req) })));
  router.post(
    '/forgot-password',
    formBody,
    handle(deps, base, async (req, res) => {
      if (fromAnotherSite(deps, req)) throw new AppError('forbidden', 'This form did not come from this site.');
      const t = wordsIn(languageOf(req));
      const email = text(req.body, 'email');
      let mail: boolean;
      try {
        mail = await countResetRequest(deps.accounts, door, email, clientAddress(deps, req));
      } catch (err) {
        if (!(err instanceof AppError) || err.code !== 'rate-limit-exceeded') throw err;
        res.set('Retry-After', String(err.extensions['retry_after'] ?? 60));
        return { page: page(req, t('forgot_password'), html`<h1>${t('forgot_password')}</h1>${notice('error', t('too_many_reset_requests'))}`), status: 429 };
      }
      // The account is looked up, and the mail asked for, after the answer: the answer and its time are the same for every email,
      // and for an email past its bound (nothing is mailed then).
      const language = languageOf(req);
      if (mail) {
        setImmediate(() => {
          mailPasswordReset(deps.accounts, door, email, language).catch((err: unknown) => deps.log.warn({ err: describeError(err), door }, 'password reset not mailed'));
        });
      }
      return {
        page: page(
          req,
          t('check_your_mail'),
          html`<h1>${t('check_your_mail')}</h1>
<p>${t('reset_link_on_its_way')}</p>
<p><a href="${base}/sign-in">${t('back_to_sign_in')}</a></p>`,
        ),
      };
    }),
  );

  const resetForm = (req: Request, token: string, problem?: string): Html => {
    const t = wordsIn(languageOf(req));
    return page(
      req,
      t('choose_new_password'),
      html`<h1>${t('choose_new_password')}</h1>
${problem ? notice('error', problem) : ''}
<form method="post" action="${base}/reset" class="stack">
<input type="hidden" name="token" value="${token}">
<label>${t('new_password')} <input type="password" name="password" autocomplete="new-password" minlength="12" required></label>
<p class="muted">${t('password_length_hint')}</p>
<button type="submit">${t('set_password')}</button>
</form>`,
    );
  };
  const resetGone = (req: Request): Outcome => {
    const language = languageOf(req);
    const t = wordsIn(language);
    return {
      page: page(
        req,
        t('account_link_gone_title'),
        html`<h1>${t('account_link_gone_title')}</h1>
${notice('error', t.known(LINK_GONE.reset))}
<p><a href="${base}/forgot-password">${t('ask_for_new_link')}</a></p>`,
      ),
      status: 410,
    };
  };
  router.get(
    '/reset',
    handle(deps, base, async (req) => {
      const token = typeof req.query['token'] === 'string' ? req.query['token'] : '';
      return (await passwordLinkIsLive(deps.accounts, 'reset', door, token)) ? { page: resetForm(req, token) } : resetGone(req);
    }),
  );
  router.post(
    '/reset',
    formBody,
    handle(deps, base, async (req) => {
      if (fromAnotherSite(deps, req)) throw new AppError('forbidden', 'This form did not come from this site.');
      const token = text(req.body, 'token');
      try {
        await setPasswordWithLink(deps.accounts, 'reset', door, token, text(req.body, 'password'), clientAddress(deps, req));
      } catch (err) {
        if (err instanceof AppError && err.code === 'validation-error') return { page: resetForm(req, token, wordsIn(languageOf(req)).known(err.errors[0]?.message ?? err.detail)), status: 422 };
        if (err instanceof AppError && err.code === 'not-found') return resetGone(req);
        throw err;
      }
      return { redirect: `${base}/sign-in?reset=done` };
    }),
  );

  router.get('/language', (req, res) => {
    const to = req.query['to'];
    if (isLanguage(to)) setCookie(deps, res, LANGUAGE_COOKIE, to, { path: '/', maxAgeSeconds: 365 * 24 * 3600 });
    send(res, { redirect: backWithin(base, req.query['back']) });
  });
}

export interface Guard {
  /** Who may open the page: answers the forbidden reason, or nothing. */
  allow?: (viewer: Viewer) => string | undefined;
}

/**
 * A signed-in page of `door`: no live, verified session → the sign-in page
 * (a change is never made); a change without the session's CSRF token → 403;
 * a person the page is not for → 403.
 */
export function signedIn(deps: DoorDeps, door: Door, guard: Guard, work: (req: Request, viewer: Viewer, res: Response) => Promise<Outcome>) {
  const base = `/${door}`;
  return handle(deps, base, async (req, res) => {
    const current = await currentSession(deps, req, door);
    if (!current || !current.session.verified) {
      if (req.method !== 'GET') throw new AppError('unauthorized', 'Your session has ended. Sign in again.');
      return { redirect: `${base}/sign-in?next=${encodeURIComponent(req.originalUrl)}` };
    }
    if (req.method !== 'GET') checkCsrf(deps, req, current.session.csrf_token);
    const language = languageOf(req);
    const address = clientAddress(deps, req);
    const person = current.person;
    const actorBase = { id: person.id, email: person.email, address };
    const viewer: Viewer = {
      door,
      base,
      person,
      sessionHash: current.idHash,
      csrf: current.session.csrf_token,
      mode: current.session.mode,
      language,
      t: wordsIn(language),
      address,
      requestId: requestIdOf(res) || newToken(12),
      actor: door === 'ops' ? { type: 'operator', ...actorBase } : { type: 'user', ...actorBase, merchantId: person.merchant_id ?? '' },
      doer: { type: door === 'ops' ? 'operator' : 'user', ...actorBase } satisfies Doer,
    };
    // Operators set up their second factor before anything else, where it is required (D15).
    if (door === 'ops' && deps.opsTotpRequired && !person.totp_enabled_at && !req.path.startsWith('/security')) return { redirect: `${base}/security` };
    const refusal = guard.allow?.(viewer);
    if (refusal) throw new AppError('forbidden', refusal);
    return work(req, viewer, res);
  });
}

