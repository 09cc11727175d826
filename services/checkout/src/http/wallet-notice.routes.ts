/**
 * Flouci's notices (D26): POST /checkout/wallet-notices/flouci/<attempt id>
 * with a small JSON body. A machine's route, not a page: every answer is
 * JSON. A well-formed notice is answered 200 {"received":true} once the
 * adapter was asked to verify the payment, whatever came of it, so that Flouci
 * does not post it again and again; any other body is a 400, a path naming no
 * attempt of ours a 404, and a client address posting too often a 429.
 */
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { describeError, type Logger } from '@gateway/observability';
import { bodyRefusal, clientAddress, throttledAddress } from '@gateway/runtime';
import { isAttemptId } from '../domain/three-d-secure.js';
import { readWalletNotice, takeWalletNotice, type WalletNoticeDeps } from '../domain/wallet-notice.js';
import { MinuteCounter } from './minute-counter.js';

const NOTICES_PATH = '/checkout/wallet-notices';
/** A notice is two short fields. */
const NOTICE_MAX_BYTES = 2 * 1024;
/** An answer for a machine: nothing kept, nothing sniffed. */
const JSON_HEADERS = { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' };

export interface WalletNoticeRoutesOptions {
  /** How many proxies of ours stand in front: the client's address is the X-Forwarded-For entry that many hops back. */
  trustProxyHops: number;
  /** Requests one client address may make here in a minute, in each replica. */
  noticesPerAddressPerMinute: number;
  clock: () => Date;
}

/** The notice routes; added before the hosted page's, whose pages answer every other /checkout/ path. */
export function addWalletNoticeRoutes(app: Express, deps: WalletNoticeDeps, log: Logger, options: WalletNoticeRoutesOptions): void {
  const router = express.Router({ caseSensitive: true });
  router.use(NOTICES_PATH, limitPerAddress(options));
  router.param('attemptId', (_req, _res, next, id: string) => next(isAttemptId(id) ? undefined : 'route'));
  router.post(`${NOTICES_PATH}/flouci/:attemptId`, express.json({ limit: NOTICE_MAX_BYTES, inflate: false, strict: true, type: 'application/json' }), async (req: Request, res: Response) => {
    const notice = readWalletNotice(req.body);
    if (!notice) return sendJson(res, 400, { error: 'invalid-notice' });
    await takeWalletNotice(deps, String(req.params['attemptId']), notice);
    sendJson(res, 200, { received: true });
  });
  router.use(NOTICES_PATH, (_req: Request, res: Response) => sendJson(res, 404, { error: 'not-found' }));
  // A body that cannot be read: not JSON, too large, compressed, another charset.
  router.use(NOTICES_PATH, (err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const refusal = bodyRefusal(err);
    if (refusal) return sendJson(res, 400, { error: 'invalid-notice' });
    log.error({ err: describeError(err) }, 'wallet notice failed');
    sendJson(res, 500, { error: 'internal-error' });
  });
  app.use(router);
}

/** Counts every request to the notices per client address (an IPv6 one by its /64) and answers 429 past the limit. */
function limitPerAddress(options: WalletNoticeRoutesOptions) {
  const counter = new MinuteCounter();
  return (req: Request, res: Response, next: NextFunction): void => {
    res.set(JSON_HEADERS);
    const now = options.clock().getTime();
    if (counter.count(throttledAddress(clientAddress(req, options.trustProxyHops)), now) <= options.noticesPerAddressPerMinute) return next();
    res.set('Retry-After', String(MinuteCounter.retryAfterSeconds(now)));
    sendJson(res, 429, { error: 'rate-limit-exceeded' });
  };
}

function sendJson(res: Response, status: number, body: Record<string, unknown>): void {
  if (res.headersSent) return;
  res.status(status).type('application/json').send(JSON.stringify(body));
}
