/**
 * Signing in and out of a door (D14, D15): email and password, then the
 * second factor when the person has one; the language switch; and the
 * door's static assets.
 */
import type { Router } from 'express';
import { isLanguage } from '@gateway/i18n';
import { AppError } from '@gateway/problem';
import type { Door } from '../db/person.repository.js';
import { passSecondFactor } from '../domain/second-factor.js';
import { signedIn, signIn } from '../domain/sign-in.js';
import { newToken, tokenHash } from '../domain/tokens.js';
import { SCRIPT, STYLESHEET } from '../views/assets.js';
import { secondFactorPage, signInPage } from '../views/sign-in.page.js';
import {
  checkCsrf,
  clearSessionCookie,
  clientAddress,
  cookieName,
  currentSession,
  fromAnotherSite,
  handle,
  LANGUAGE_COOKIE,
  languageOf,
  send,
  setCookie,
  startSession,
  type DoorDeps,
} from './door.js';
import { rawFieldOf } from './form-fields.js';
import { backWithin, formBody } from './signed-in.js';

/** The sign-in, second-factor, language and sign-out routes of `door`, and its static assets. */
export function signInRoutes(deps: DoorDeps, door: Door, router: Router): void {
  const base = `/${door}`;

  router.get('/assets/app.css', (_req, res) => {
    res.set('Cache-Control', 'public, max-age=300').type('text/css').send(STYLESHEET);
  });
  router.get('/assets/app.js', (_req, res) => {
    res.set('Cache-Control', 'public, max-age=300').type('text/javascript').send(SCRIPT);
  });

  router.get(
    '/sign-in',
    handle(deps, base, async (req) => ({ page: signInPage(languageOf(req), door, { next: backWithin(base, req.query['next']), resetDone: req.query['reset'] === 'done' }) })),
  );
  router.post(
    '/sign-in',
    formBody,
    handle(deps, base, async (req, res) => {
      // Sign-in has no session yet: what the browser says of the form's origin is the check that it is ours.
      if (fromAnotherSite(deps, req)) throw new AppError('forbidden', 'This form did not come from this site.');
      const email = rawFieldOf(req.body, 'email');
      try {
        const { person, secondFactor } = await signIn(deps.accounts, door, email, rawFieldOf(req.body, 'password'), clientAddress(deps, req));
        // D20: the person's mails are in the language they sign in with.
        await deps.accounts.people.setLanguage(person.id, languageOf(req));
        await startSession(deps, res, door, person, !secondFactor, clientAddress(deps, req));
        if (!secondFactor) await signedIn(deps.accounts, door, person, clientAddress(deps, req));
        const next = backWithin(base, rawFieldOf(req.body, 'next'));
        return { redirect: secondFactor ? `${base}/second-factor?next=${encodeURIComponent(next)}` : next };
      } catch (err) {
        if (err instanceof AppError && err.code === 'unauthorized') {
          return { page: signInPage(languageOf(req), door, { next: backWithin(base, req.query['next']), email, refusal: err.detail }), status: 401 };
        }
        throw err;
      }
    }),
  );

  router.get(
    '/second-factor',
    handle(deps, base, async (req) => {
      const current = await currentSession(deps, req, door);
      if (!current) return { redirect: `${base}/sign-in` };
      if (current.session.verified) return { redirect: `${base}/` };
      return { page: secondFactorPage(languageOf(req), base, { csrf: current.session.csrf_token, next: backWithin(base, req.query['next']) }) };
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
      if (!(await passSecondFactor(deps.accounts, door, current.person, rawFieldOf(req.body, 'code'), clientAddress(deps, req)))) {
        const next = backWithin(base, req.query['next'] ?? rawFieldOf(req.body, 'next'));
        return { page: secondFactorPage(languageOf(req), base, { csrf: current.session.csrf_token, next, wrongCode: true }), status: 401 };
      }
      // A new session id once fully signed in: the cookie that only knew the password is worth nothing.
      const id = newToken();
      if (!(await deps.accounts.sessions.verify(current.idHash, tokenHash(id), newToken()))) return { redirect: `${base}/sign-in` };
      await signedIn(deps.accounts, door, current.person, clientAddress(deps, req));
      setCookie(deps, res, cookieName(door), id, { path: base });
      return { redirect: backWithin(base, rawFieldOf(req.body, 'next')) };
    }),
  );

  router.post(
    '/sign-out',
    formBody,
    handle(deps, base, async (req, res) => {
      const current = await currentSession(deps, req, door);
      if (current) {
        checkCsrf(deps, req, current.session.csrf_token);
        await deps.accounts.sessions.end(current.idHash);
      }
      clearSessionCookie(deps, res, door);
      return { redirect: `${base}/sign-in` };
    }),
  );

  router.get('/language', (req, res) => {
    const to = req.query['to'];
    if (isLanguage(to)) setCookie(deps, res, LANGUAGE_COOKIE, to, { path: '/', maxAgeSeconds: 365 * 24 * 3600 });
    send(res, { redirect: backWithin(base, req.query['back']) });
  });
}
