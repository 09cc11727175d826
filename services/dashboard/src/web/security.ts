/**
 * Security (D14, D15): the second factor of the signed-in person, for both
 * doors. Turning it on shows a new secret until a code from the app confirms
 * it, then the recovery codes, once. Turning it off asks for the password
 * again. Operators may not turn it off where the console requires it.
 */
import type { Router } from 'express';
import { html, type Html } from '@gateway/runtime';
import { beginTotp, confirmTotp, disableTotp, pendingTotpSecret } from '../identity/accounts.js';
import { totpUri } from '../identity/secrets.js';
import { acting, type DoorDeps, type Outcome, type Viewer } from './door.js';
import { csrfField, notice, phrase, when } from './layout.js';
import { formBody, signedIn } from './sign-in.js';

/** Renders a page of the door's frame for `viewer`. */
export type DoorRender = (viewer: Viewer, section: string, title: string, body: Html, status?: number) => Promise<Outcome>;

export function securityRoutes(deps: DoorDeps, door: 'dashboard' | 'ops', router: Router, render: DoorRender): void {
  const base = `/${door}`;
  const section = `${base}/security`;
  const show = async (viewer: Viewer, message?: Html, status?: number): Promise<Outcome> => {
    const { t } = viewer;
    // Read again: the person may have just changed.
    const person = (await deps.accounts.people.byId(viewer.person.id)) ?? viewer.person;
    const pending = await pendingTotpSecret(deps.accounts, person);
    const required = door === 'ops' && deps.opsTotpRequired;
    let body: Html;
    if (person.totp_enabled_at) {
      body = html`<p>${phrase(t, 'Two-step sign-in: {state} since {date}.', { state: html`<strong>${t('on')}</strong>`, date: when(person.totp_enabled_at.toISOString()) })}</p>
${
  required
    ? html`<p class="muted">${t('Operators must keep it on.')}</p>`
    : html`<form method="post" action="${section}/off" class="stack" data-confirm="${t('Turn two-step sign-in off?')}">${csrfField(viewer.csrf)}
<label>${t('Current password')} <input type="password" name="password" autocomplete="current-password" required></label>
<button type="submit" class="danger">${t('Turn off')}</button></form>`
}`;
    } else if (pending) {
      body = html`<p>${t('Add this key to your authenticator app, then type the code it shows.')}</p>
<p><code class="secret" id="totp-secret">${pending}</code></p>
<p class="muted"><code>${totpUri(pending, person.email, 'Gateway')}</code></p>
<form method="post" action="${section}/confirm" class="stack">${csrfField(viewer.csrf)}
<label>${t('Code')} <input name="code" inputmode="numeric" autocomplete="one-time-code" required></label>
<button type="submit">${t('Turn on')}</button></form>`;
    } else {
      body = html`${required ? notice('warn', t('The operations console needs two-step sign-in before anything else.')) : ''}
<p>${phrase(t, 'Two-step sign-in: {state}.', { state: html`<strong>${t('off')}</strong>` })}</p>
<form method="post" action="${section}/begin">${csrfField(viewer.csrf)}<button type="submit">${t('Turn on')}</button></form>`;
    }
    return render(viewer, section, t('Security'), html`<h1>${t('Security')}</h1>${message ?? ''}<section class="card"><h2>${t('Two-step sign-in')}</h2>${body}</section>`, status);
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
          return notice(
            'warn',
            html`<p><strong>${viewer.t('Recovery codes')}</strong>: ${viewer.t('each works once, when your phone is not at hand. They are shown only now.')}</p><pre>${codes.join('\n')}</pre>`,
          );
        },
        viewer.language,
      ),
    ),
  );
  router.post(
    '/security/off',
    formBody,
    signedIn(deps, door, {}, async (req, viewer) => {
      if (door === 'ops' && deps.opsTotpRequired) return show(viewer, notice('error', viewer.t('Operators must keep two-step sign-in on.')), 403);
      const password = String((req.body as Record<string, unknown>)['password'] ?? '');
      return acting(
        (message, status) => show(viewer, message, status),
        async () => {
          await disableTotp(deps.accounts, door, viewer.person, password, viewer.doer);
          return notice('ok', viewer.t('Two-step sign-in is off.'));
        },
        viewer.language,
      );
    }),
  );
}
