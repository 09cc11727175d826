/**
 * What every page of a door (/dashboard or /ops) shares: the session cookie
 * and the person behind it, the CSRF check on every change, the page
 * headers, the language, and one way to turn any outcome or failure into an
 * answer.
 */
import type { NextFunction, Request, Response } from 'express';
import type { ExportSlots } from '@gateway/exports';
import { chooseLanguage, type Language } from '@gateway/i18n';
import { outageOf, type Actor, type RpcClient } from '@gateway/messaging';
import { describeError, type Logger } from '@gateway/observability';
import { AppError, retryAfterOf } from '@gateway/problem';
import { clientAddress as addressBehindProxies, pageSecurityHeaders, requestIdOf, type Html } from '@gateway/runtime';
import type { Door, PersonRow } from '../db/person.repository.js';
import type { CardSealer } from '@gateway/card-sealing';
import type { AccountsDeps, Doer } from '../domain/accounts.js';
import { newToken, sameText, tokenHash } from '../domain/tokens.js';
import { failurePage as failureView, refusalWords } from '../views/failure.page.js';
import { problemNotice, type Reader } from '../views/layout.js';
import { wordsIn } from '../views/texts/catalogue.js';

const PAGE_HEADERS = pageSecurityHeaders({ scripts: true });

export interface DoorDeps {
  accounts: AccountsDeps;
  rpc: RpcClient;
  log: Logger;
  sessionIdleSeconds: number;
  /** Cookies are Secure unless the public origin is http://localhost (D14). */
  secureCookies: boolean;
  publicOrigin: string;
  opsTotpRequired: boolean;
  /** The choices of "Rotate" for the old live key, in seconds (D14). */
  keyRotationGracesSeconds: readonly number[];
  /** Proxies of ours in front (TRUST_PROXY_HOPS): how far back in X-Forwarded-For the person's address is. */
  trustProxyHops: number;
  /** The Reports downloads' limits, the API's exports' own (D29): the same slots, idle timeout and longest time. */
  exports: ExportLimits;
  /** Seals what only the acquirer adapter may read (D26: a merchant's Flouci private key) before it crosses the broker. */
  sealer: CardSealer;
}

/** What holds a CSV download to D29: the export slots shared with the API gateway, and how long a download may idle and run. */
export interface ExportLimits {
  slots: Pick<ExportSlots, 'take'>;
  /** EXPORT_IDLE_TIMEOUT_MS. */
  idleTimeoutMs: number;
  /** EXPORT_MAX_SECONDS. */
  maxSeconds: number;
}

/** A signed-in person on a page of their door: a reader of its pages, and who acts when they change something. */
export interface Viewer extends Reader {
  readonly door: Door;
  readonly base: string;
  readonly person: PersonRow;
  readonly sessionHash: string;
  readonly address: string;
  readonly requestId: string;
  /** Who the owning services are told acts (D14, D15). */
  readonly actor: Actor;
  /** The audit log's words for the same person. */
  readonly doer: Doer;
}

/** What a page handler answers: a page (with its status), somewhere to go, or that it sent its own answer (a download). */
export type Outcome = { page: Html; status?: number } | { redirect: string } | { sent: true };

/** The language switch's cookie: the language a person chose, for both doors. */
export const LANGUAGE_COOKIE = 'gw_lang';

/** The session cookie's name at `door`. */
export function cookieName(door: Door): string {
  return door === 'ops' ? 'gw_ops' : 'gw_dashboard';
}

/** The language the person chose (the switch's cookie), else the first of ours their browser asks for, else English. */
export function languageOf(req: Request): Language {
  return chooseLanguage(cookies(req)[LANGUAGE_COOKIE], req.headers['accept-language'], 'en');
}

/** The request's cookies by name, decoded; the first of a name wins, and one that cannot be decoded is left out. */
function cookies(req: Request): Record<string, string> {
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i < 0) continue;
    const name = part.slice(0, i).trim();
    if (!(name in out)) {
      try {
        out[name] = decodeURIComponent(part.slice(i + 1).trim());
      } catch {
        // A cookie that is not ours cannot break the page.
      }
    }
  }
  return out;
}

/** Sets a cookie on `res`: HttpOnly, SameSite=Lax, and Secure unless the public origin is http://localhost. */
export function setCookie(deps: DoorDeps, res: Response, name: string, value: string, options: { path: string; maxAgeSeconds?: number }): void {
  const attributes = [`${name}=${encodeURIComponent(value)}`, `Path=${options.path}`, 'HttpOnly', 'SameSite=Lax'];
  if (options.maxAgeSeconds !== undefined) attributes.push(`Max-Age=${options.maxAgeSeconds}`);
  if (deps.secureCookies) attributes.push('Secure');
  res.append('Set-Cookie', attributes.join('; '));
}

/** Starts a session for `person` (verified or waiting for the second factor); its cookie is set on `res`. */
export async function startSession(deps: DoorDeps, res: Response, door: Door, person: PersonRow, verified: boolean, address: string): Promise<void> {
  const id = newToken();
  await deps.accounts.sessions.insert({ idHash: tokenHash(id), personId: person.id, verified, csrfToken: newToken(), address, idleSeconds: deps.sessionIdleSeconds });
  setCookie(deps, res, cookieName(door), id, { path: `/${door}` });
}

/** Removes the session cookie of `door` from the browser. */
export function clearSessionCookie(deps: DoorDeps, res: Response, door: Door): void {
  setCookie(deps, res, cookieName(door), '', { path: `/${door}`, maxAgeSeconds: 0 });
}

/** The session behind the request's cookie, whatever its state; undefined when none is live. */
export async function currentSession(deps: DoorDeps, req: Request, door: Door) {
  const id = cookies(req)[cookieName(door)];
  if (!id) return undefined;
  const idHash = tokenHash(id);
  const session = await deps.accounts.sessions.touch(idHash, deps.sessionIdleSeconds);
  if (!session) return undefined;
  const person = await deps.accounts.people.byId(session.person_id);
  if (!person || person.door !== door) return undefined;
  return { idHash, session, person };
}

/** The person's address, as our proxies in front saw it (@gateway/runtime's rule). */
export function clientAddress(deps: DoorDeps, req: Request): string {
  return addressBehindProxies(req, deps.trustProxyHops);
}

/**
 * Whether the browser says another site's page made the request. Our pages'
 * no-referrer policy makes browsers send `Origin: null` even with our own
 * forms, so Sec-Fetch-Site (sent by current browsers) decides when present;
 * otherwise an Origin other than ours (`null` says nothing either way).
 */
export function fromAnotherSite(deps: DoorDeps, req: Request): boolean {
  const site = req.headers['sec-fetch-site'];
  if (typeof site === 'string') return site !== 'same-origin';
  const origin = req.headers.origin;
  return origin !== undefined && origin !== 'null' && origin !== deps.publicOrigin;
}

/**
 * A state-changing request must carry the session's CSRF token, and, when the
 * browser says where it comes from, come from our own origin.
 */
export function checkCsrf(deps: DoorDeps, req: Request, token: string): void {
  const given = (req.body as Record<string, unknown> | undefined)?.['_csrf'];
  if (fromAnotherSite(deps, req) || typeof given !== 'string' || !sameText(given, token)) {
    throw new AppError('forbidden', 'This form has expired or did not come from this site. Reload the page and try again.');
  }
}

/** Sends an outcome: the page with the door's headers, or a redirect (303 after a form). */
export function send(res: Response, outcome: Outcome): void {
  if ('sent' in outcome) return;
  res.set(PAGE_HEADERS);
  if ('redirect' in outcome) {
    res.redirect(303, outcome.redirect);
    return;
  }
  res.status(outcome.status ?? 200).type('html').send(outcome.page.toString());
}

/** The page a failure becomes: its problem's words and status; nothing internal. */
export function failurePage(deps: DoorDeps, req: Request, res: Response, err: unknown, base: string): Outcome {
  const language = languageOf(req);
  // A dependency out (D23), here or in the service that answered: a 503 page with Retry-After.
  const outage = outageOf(err);
  if (err instanceof AppError && !outage) {
    const retryAfter = retryAfterOf(err);
    if (retryAfter !== undefined) res.set('Retry-After', String(retryAfter));
    return { page: failureView(language, base, (t) => refusalWords(t, err)), status: err.status };
  }
  if (outage) {
    deps.log.warn({ err: describeError(err), requestId: requestIdOf(res) }, 'page failed while a dependency is out');
    res.set('Retry-After', String(retryAfterOf(outage)));
    return { page: failureView(language, base, (t) => t('service_unreachable')), status: 503 };
  }
  deps.log.error({ err: describeError(err), requestId: requestIdOf(res) }, 'page failed');
  return { page: failureView(language, base, (t) => t('unexpected_error')), status: 500 };
}

/** Wraps an async express handler: its outcome is sent, its failure becomes a page. */
export function handle(deps: DoorDeps, base: string, work: (req: Request, res: Response) => Promise<Outcome>) {
  return (req: Request, res: Response, _next: NextFunction): void => {
    work(req, res)
      .then((outcome) => send(res, outcome))
      .catch((err: unknown) => send(res, failurePage(deps, req, res, err, base)));
  };
}

/**
 * Runs a change and shows its section again with the outcome: the change's
 * words when it succeeds, the owning service's problem (its detail and field
 * errors, as the API would answer) when it is refused, or when the acquirer
 * behind it did not answer (processor-unavailable: the owning service did,
 * and its section can be shown with what it said).
 */
export async function acting(show: (message?: Html, status?: number) => Promise<Outcome>, change: () => Promise<Html>, language: Language): Promise<Outcome> {
  let message: Html;
  try {
    message = await change();
  } catch (err) {
    if (err instanceof AppError && ((err.status < 500 && err.status !== 401) || err.code === 'processor-unavailable')) return show(problemNotice(err, wordsIn(language)), err.status);
    throw err;
  }
  return show(message);
}
