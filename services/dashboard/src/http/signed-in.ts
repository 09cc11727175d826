/**
 * The guard every signed-in page of a door goes through (D14, D15): a live,
 * verified session, the CSRF token on every change, the operators' second
 * factor where the console requires it, and who the page is for; and the
 * form bodies the doors take.
 */
import type { Request, Response } from 'express';
import { AppError } from '@gateway/problem';
import { formBody as formParser, requestIdOf } from '@gateway/runtime';
import type { Door } from '../db/person.repository.js';
import type { Doer } from '../domain/accounts.js';
import { newToken } from '../domain/tokens.js';
import { wordsIn } from '../views/texts/catalogue.js';
import { checkCsrf, clientAddress, currentSession, handle, languageOf, type DoorDeps, type Outcome, type Viewer } from './door.js';

/** Form bodies: small, flat, few fields. */
export const formBody = formParser({ maxBytes: 16 * 1024, maxFields: 50 });

/** A path inside the door to go back to, never anywhere else. */
export function backWithin(base: string, value: unknown): string {
  return typeof value === 'string' && value.startsWith(`${base}/`) && !value.startsWith('//') && !/[\\\r\n]/.test(value) ? value : `${base}/`;
}

interface Guard {
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

