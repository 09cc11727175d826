/**
 * Security (D14, D15): the second factor of the signed-in person, for both
 * doors. Turning it on shows a new secret until a code from the app confirms
 * it, then the recovery codes, once. Turning it off asks for the password
 * again. Operators may not turn it off where the console requires it.
 */
import type { Router } from 'express';
import { html, type Html } from '@gateway/runtime';
import type { Door } from '../db/person.repository.js';
import { totpUri } from '../domain/totp.js';
import { beginTotp, confirmTotp, disableTotp, pendingTotpSecret } from '../domain/two-step-sign-in.js';
import { notice, type PageView } from '../views/layout.js';
import { recoveryCodesNotice, securityPage } from '../views/security.page.js';
import { acting, type DoorDeps, type Outcome, type Viewer } from './door.js';
import { formBody, signedIn } from './signed-in.js';

/** Renders a page of the door's frame for `viewer`. */
type DoorRender = (viewer: Viewer, section: string, page: PageView, status?: number) => Promise<Outcome>;

/** The Security routes of `door`, each page rendered in the door's frame by `render`. */
export function securityRoutes(deps: DoorDeps, door: Door, router: Router, render: DoorRender): void {
  const section = `/${door}/security`;
  const required = door === 'ops' && deps.opsTotpRequired;
  const show = async (viewer: Viewer, message?: Html, status?: number): Promise<Outcome> => {
    // Read again: the person may have just changed.
    const person = (await deps.accounts.people.byId(viewer.person.id)) ?? viewer.person;
    const pending = await pendingTotpSecret(deps.accounts, person);
    const state = {
      required,
      ...(person.totp_enabled_at && { enabledAt: person.totp_enabled_at }),
      ...(pending !== undefined && { pending: { secret: pending, uri: totpUri(pending, person.email, 'Gateway') } }),
    };
    return render(viewer, section, securityPage(viewer, section, state, message), status);
  };

  router.get('/security', signedIn(deps, door, {}, async (_req, viewer) => show(viewer)));
  router.post(
    '/security/begin',
    formBody,
    signedIn(deps, door, {}, async (_req, viewer) =>
      acting(
        (message, status) => show(viewer, message, status),
        async () => {
          await beginTotp(deps.accounts, viewer.person);
          return html``;
        },
        viewer.language,
      ),
    ),
  );
  router.post(
    '/security/confirm',
    formBody,
    signedIn(deps, door, {}, async (req, viewer) =>
      acting(
        (message, status) => show(viewer, message, status),
        async () => {
          const person = (await deps.accounts.people.byId(viewer.person.id)) ?? viewer.person;
          const code = String((req.body as Record<string, unknown>)['code'] ?? '');
          const codes = await confirmTotp(deps.accounts, person, code, viewer.doer, viewer.sessionHash);
          return recoveryCodesNotice(viewer.t, codes);
        },
        viewer.language,
      ),
    ),
  );
  router.post(
    '/security/off',
    formBody,
    signedIn(deps, door, {}, async (req, viewer) => {
      if (required) return show(viewer, notice('error', viewer.t('operators_keep_two_step_on')), 403);
      const password = String((req.body as Record<string, unknown>)['password'] ?? '');
      return acting(
        (message, status) => show(viewer, message, status),
        async () => {
          await disableTotp(deps.accounts, door, viewer.person, password, viewer.doer);
          return notice('ok', viewer.t('two_step_turned_off'));
        },
        viewer.language,
      );
    }),
  );
}
