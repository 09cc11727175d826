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
      body = html`<p>${phrase(t, 'two_step_state_since', { state: html`<strong>${t('two_step_on')}</strong>`, date: when(person.totp_enabled_at.toISOString()) })}</p>
${
  required
    ? html`<p class="muted">${t('operators_keep_it_on')}</p>`
    : html`<form method="post" action="${section}/off" class="stack" data-confirm="${t('turn_off_confirm')}">${csrfField(viewer.csrf)}
<label>${t('current_password')} <input type="password" name="password" autocomplete="current-password" required></label>
<button type="submit" class="danger">${t('turn_off_button')}</button></form>`
}`;
    } else if (pending) {
      body = html`<p>${t('add_key_to_app')}</p>
<p><code class="secret" id="totp-secret">${pending}</code></p>
<p class="muted"><code>${totpUri(pending, person.email, 'Gateway')}</code></p>
<form method="post" action="${section}/confirm" class="stack">${csrfField(viewer.csrf)}
<label>${t('totp_code')} <input name="code" inputmode="numeric" autocomplete="one-time-code" required></label>
<button type="submit">${t('turn_on_button')}</button></form>`;
    } else {
      body = html`${required ? notice('warn', t('console_needs_two_step')) : ''}
<p>${phrase(t, 'two_step_state', { state: html`<strong>${t('two_step_off')}</strong>` })}</p>
<form method="post" action="${section}/begin">${csrfField(viewer.csrf)}<button type="submit">${t('turn_on_button')}</button></form>`;
    }
    return render(viewer, section, t('security_section'), html`<h1>${t('security_section')}</h1>${message ?? ''}<section class="card"><h2>${t('two_step_sign_in')}</h2>${body}</section>`, status);
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
            html`<p><strong>${viewer.t('recovery_codes')}</strong>: ${viewer.t('recovery_codes_note')}</p><pre>${codes.join('\n')}</pre>`,
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
      if (door === 'ops' && deps.opsTotpRequired) return show(viewer, notice('error', viewer.t('operators_keep_two_step_on')), 403);
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
