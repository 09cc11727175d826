/** The dashboard's test/live switch (D14): the mode in view is the session's. */
import type { Router } from 'express';
import { AppError } from '@gateway/problem';
import { BASE } from '../../views/paths.js';
import { backWithin, formBody, signedIn } from '../signed-in.js';
import type { DoorDeps } from '../door.js';
import { needs } from './merchant-page.js';

/** The route of the test/live switch. */
export function modeRoutes(deps: DoorDeps, router: Router): void {
  router.post(
    '/mode',
    formBody,
    signedIn(deps, 'dashboard', needs('read'), async (req, viewer) => {
      const mode = (req.body as Record<string, unknown>)['mode'];
      if (mode !== 'test' && mode !== 'live') throw new AppError('validation-error', 'Choose test or live mode.');
      await deps.accounts.sessions.setMode(viewer.sessionHash, mode);
      return { redirect: backWithin(BASE, (req.body as Record<string, unknown>)['back']) };
    }),
  );
}
