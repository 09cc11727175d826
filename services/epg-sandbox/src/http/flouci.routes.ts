/**
 * Flouci's API under /api/v2/ (WALLET.md): every call takes the same path:
 * its method, the application's Authorization (HTTP 401 when missing or
 * wrong, before any body is read), a JSON object body for the POSTs, then the
 * call itself; the answer is `{success: true, result, code: 0}`, a refusal
 * `{success: false, message, code: 1}`, and one log line tells what happened,
 * without the Authorization header or anything of the body but ids.
 */
import express, { type NextFunction, type Request, type RequestHandler, type Response, type Router } from 'express';
import { describeError, type Logger } from '@gateway/observability';
import { bodyRefusal, labelRoute, serverSpans } from '@gateway/runtime';
import type { FlouciApps } from '../config.js';
import { cancelPayment } from '../domain/flouci/cancel-payment.js';
import { confirmPayment } from '../domain/flouci/confirm-payment.js';
import { authenticateApp } from '../domain/flouci/flouci-apps.js';
import { FlouciError } from '../domain/flouci/flouci-error.js';
import { generatePayment } from '../domain/flouci/generate-payment.js';
import { refundPayment } from '../domain/flouci/refund-payment.js';
import { verifyPayment } from '../domain/flouci/verify-payment.js';
import type { CallResult, JsonBody, Wallet } from '../domain/flouci/wallet.js';
import { methodNotAllowed } from './responses.js';

export interface FlouciDependencies {
  readonly wallet: Wallet;
  readonly apps: FlouciApps;
  readonly log: Logger;
}

const API_PATH = '/api/v2';

/** A call, once its application is known: its `result`, or a FlouciError. */
type FlouciCall = (app: string, req: Request) => CallResult;

/** One call: its method and path under /api/v2/ (its name, then any parameter), and what it does. */
interface FlouciRoute {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly call: FlouciCall;
}

/** Small: the largest legitimate body is a generate_payment with its three links. */
const JSON_LIMITS = { limit: 16 * 1024, inflate: false, strict: true, type: 'application/json' } as const;

/** res.locals' keys: the call's name (for the error steps, which see no route), and the application once authenticated. */
const CALL = 'flouciCall';
const APP = 'flouciApp';

function routesOf(wallet: Wallet): readonly FlouciRoute[] {
  return [
    { method: 'POST', path: 'generate_payment', call: (app, req) => generatePayment(wallet, app, jsonObject(req)) },
    { method: 'GET', path: 'verify_payment/:payment_id', call: (app, req) => verifyPayment(wallet, app, String(req.params['payment_id'])) },
    { method: 'POST', path: 'confirm_payment', call: (app, req) => confirmPayment(wallet, app, jsonObject(req)) },
    { method: 'POST', path: 'cancel_payment', call: (app, req) => cancelPayment(wallet, app, jsonObject(req)) },
    { method: 'POST', path: 'refund_payment', call: (app, req) => refundPayment(wallet, app, jsonObject(req)) },
  ];
}

/** The calls, each on its path and method as Flouci serves it; another method on a call's path is 405, an unknown path left to the app's 404. */
export function flouciRouter(deps: FlouciDependencies): Router {
  const router = express.Router({ caseSensitive: true, strict: true });
  router.use(API_PATH, serverSpans());
  for (const { method, path, call } of routesOf(deps.wallet)) {
    const handlers = [authenticated(deps), ...(method === 'POST' ? [express.json(JSON_LIMITS)] : []), answer(deps, call)];
    const route = router.route(`${API_PATH}/${path}`).all(named(path));
    if (method === 'POST') route.post(...handlers);
    else route.get(...handlers);
    route.all((_req, res) => methodNotAllowed(res, method));
  }
  router.use(API_PATH, (err: unknown, _req: Request, res: Response, next: NextFunction) => {
    const refused = bodyRefusal(err);
    if (!refused) return next(err);
    logCall(deps, res, { success: false, status: refused.status, reason: refused.type });
    json(res, refused.status, refusal('Unreadable request body: expected a JSON object'));
  });
  router.use(API_PATH, (err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    deps.log.error({ call: res.locals[CALL] as unknown, err: describeError(err) }, 'flouci call failed');
    if (!res.headersSent) json(res, 500, refusal('Internal error'));
  });
  return router;
}

/** Names the call for its log line and its route for the metrics, before the body is read: a refused body leaves the route. */
function named(path: string): RequestHandler {
  return (_req, res, next) => {
    res.locals[CALL] = path.split('/')[0];
    labelRoute(res, `${API_PATH}/${path}`);
    next();
  };
}

/** The application of the request's Authorization header, or HTTP 401. */
function authenticated(deps: FlouciDependencies): RequestHandler {
  return (req, res, next) => {
    const app = authenticateApp(deps.apps, req.headers.authorization);
    if (app === undefined) {
      logCall(deps, res, { success: false, status: 401, reason: req.headers.authorization === undefined ? 'no Authorization' : 'Authorization refused' });
      res.setHeader('WWW-Authenticate', 'Bearer');
      json(res, 401, refusal('Unauthorized: expected Authorization: Bearer <PUBLIC_KEY>:<PRIVATE_KEY> of a known application'));
      return;
    }
    res.locals[APP] = app;
    next();
  };
}

function answer(deps: FlouciDependencies, call: FlouciCall): RequestHandler {
  return (req, res) => {
    const app = String(res.locals[APP]);
    try {
      const result = call(app, req);
      logCall(deps, res, { success: true, status: 200, paymentId: paymentIdIn(req) ?? stringField(result, 'payment_id') });
      json(res, 200, { success: true, result, code: 0 });
    } catch (err) {
      if (!(err instanceof FlouciError)) throw err;
      logCall(deps, res, { success: false, status: 200, paymentId: paymentIdIn(req), message: err.message });
      json(res, 200, refusal(err.message));
    }
  };
}

/** The body of a POST, which must be a JSON object. */
function jsonObject(req: Request): JsonBody {
  const body: unknown = req.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new BodyNotAnObject();
  return body as JsonBody;
}

/** Named fields only: the request holds the application's private key, the answer nothing secret. */
function logCall(deps: FlouciDependencies, res: Response, fields: { success: boolean; status: number; paymentId?: string | undefined; message?: string; reason?: string }): void {
  const app = res.locals[APP] as string | undefined;
  deps.log.info({ call: res.locals[CALL] as unknown, app, ...fields }, 'flouci call');
}

function paymentIdIn(req: Request): string | undefined {
  const body: unknown = req.body;
  const given = req.params['payment_id'] ?? (typeof body === 'object' && body !== null ? (body as Record<string, unknown>)['payment_id'] : undefined);
  // Cut short: a caller's string, logged as given.
  return typeof given === 'string' ? given.slice(0, 64) : undefined;
}

function refusal(message: string): Record<string, unknown> {
  return { success: false, message, code: 1 };
}

function json(res: Response, status: number, reply: Record<string, unknown>): void {
  res.status(status).type('application/json; charset=utf-8').send(JSON.stringify(reply));
}

function stringField(result: CallResult, name: string): string | undefined {
  const value = result[name];
  return typeof value === 'string' ? value : undefined;
}

/** A POST whose body is not a JSON object: answered as an unreadable body. */
class BodyNotAnObject extends Error {
  readonly status = 400;
  readonly type = 'entity.not.object';
}
