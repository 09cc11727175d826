/**
 * The account links of a door (D14, D20): an invitation's setup link and a
 * reset link each open a form that sets the person's password, once; and
 * "Forgot password?", which mails a reset link without saying whether the
 * address has an account.
 */
import type { Request, Router } from 'express';
import { describeError } from '@gateway/observability';
import { AppError } from '@gateway/problem';
import type { AccountLink } from '../db/account-link.repository.js';
import type { Door } from '../db/person.repository.js';
import { countResetRequest, mailResetLink } from '../domain/request-password-reset.js';
import { accountLinkIsLive, setPasswordWithAccountLink } from '../domain/set-password.js';
import { checkYourMailPage, forgotPasswordPage, newPasswordPage, resetLinkGonePage, setupLinkGonePage, tooManyResetRequestsPage } from '../views/account-links.page.js';
import { clientAddress, fromAnotherSite, handle, languageOf, type DoorDeps, type Outcome } from './door.js';
import { rawFieldOf } from './form-fields.js';
import { formBody } from './signed-in.js';

/** The setup, reset and "Forgot password?" routes of `door`. */
export function accountLinkRoutes(deps: DoorDeps, door: Door, router: Router): void {
  const base = `/${door}`;
  /** A link used, lapsed, spent by a sign-in, or unknown: 410, the same page for each, in the page's language. */
  const linkGone = (req: Request, kind: AccountLink): Outcome => ({ page: (kind === 'setup' ? setupLinkGonePage : resetLinkGonePage)(languageOf(req), base), status: 410 });

  /** Sets the password with the account link of kind `kind` the form carries; a refused password shows the form again with why. */
  const setPassword = async (req: Request, kind: AccountLink): Promise<Outcome | undefined> => {
    if (fromAnotherSite(deps, req)) throw new AppError('forbidden', 'This form did not come from this site.');
    const token = rawFieldOf(req.body, 'token');
    try {
      await setPasswordWithAccountLink(deps.accounts, kind, door, token, rawFieldOf(req.body, 'password'), clientAddress(deps, req));
    } catch (err) {
      if (err instanceof AppError && err.code === 'validation-error') return { page: newPasswordPage(languageOf(req), base, kind, token, err.errors[0]?.message ?? err.detail), status: 422 };
      if (err instanceof AppError && err.code === 'not-found') return linkGone(req, kind);
      throw err;
    }
    return undefined;
  };

  router.get(
    '/setup',
    handle(deps, base, async (req) => {
      const token = typeof req.query['token'] === 'string' ? req.query['token'] : '';
      return (await accountLinkIsLive(deps.accounts, 'setup', door, token)) ? { page: newPasswordPage(languageOf(req), base, 'setup', token) } : linkGone(req, 'setup');
    }),
  );
  router.post(
    '/setup',
    formBody,
    handle(deps, base, async (req) => (await setPassword(req, 'setup')) ?? { redirect: `${base}/sign-in` }),
  );

  router.get('/forgot-password', handle(deps, base, async (req) => ({ page: forgotPasswordPage(languageOf(req), base) })));
  router.post(
    '/forgot-password',
    formBody,
    handle(deps, base, async (req, res) => {
      if (fromAnotherSite(deps, req)) throw new AppError('forbidden', 'This form did not come from this site.');
      const language = languageOf(req);
      const email = rawFieldOf(req.body, 'email');
      let mail: boolean;
      try {
        mail = await countResetRequest(deps.accounts, door, email, clientAddress(deps, req));
      } catch (err) {
        if (!(err instanceof AppError) || err.code !== 'rate-limit-exceeded') throw err;
        res.set('Retry-After', String(err.extensions['retry_after'] ?? 60));
        return { page: tooManyResetRequestsPage(language, base), status: 429 };
      }
      // The account is looked up, and the mail asked for, after the answer: the answer and its time are the same for every email,
      // and for an email past its bound (nothing is mailed then).
      if (mail) {
        setImmediate(() => {
          mailResetLink(deps.accounts, door, email, language).catch((err: unknown) => deps.log.warn({ err: describeError(err), door }, 'password reset not mailed'));
        });
      }
      return { page: checkYourMailPage(language, base) };
    }),
  );

  router.get(
    '/reset',
    handle(deps, base, async (req) => {
      const token = typeof req.query['token'] === 'string' ? req.query['token'] : '';
      return (await accountLinkIsLive(deps.accounts, 'reset', door, token)) ? { page: newPasswordPage(languageOf(req), base, 'reset', token) } : linkGone(req, 'reset');
    }),
  );
  router.post(
    '/reset',
    formBody,
    handle(deps, base, async (req) => (await setPassword(req, 'reset')) ?? { redirect: `${base}/sign-in?reset=done` }),
  );
}
