/**
 * /payment/rest/: every call takes the same path: known call and POST, a form
 * body, the terminal's credentials, then the call itself; any refusal becomes
 * HTTP 200 with its errorCode, and one log line tells what happened.
 */
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { describeError, type Logger } from '@gateway/observability';
import { EpgError, type EpgReply } from '../domain/epg-error.js';
import { finish3ds } from '../domain/finish-3ds.js';
import { getOrderStatus } from '../domain/get-order-status.js';
import { payOrder } from '../domain/pay-order.js';
import { refundOrder } from '../domain/refund-order.js';
import { registerOrder } from '../domain/register-order.js';
import { reverseOrder } from '../domain/reverse-order.js';
import type { Call, Sandbox } from '../domain/sandbox.js';
import { authenticate } from '../domain/terminals.js';
import { FormFields } from './form.js';
import { bodyError, methodNotAllowed, notFound } from './responses.js';

export interface RestDependencies {
  readonly sandbox: Sandbox;
  readonly terminals: ReadonlyMap<string, string>;
  readonly log: Logger;
}

const CALLS: ReadonlyMap<string, Call> = new Map<string, Call>([
  ['register.do', registerOrder],
  ['paymentorder.do', payOrder],
  ['finish3dsPayment.do', finish3ds],
  ['getOrderStatusExtended.do', getOrderStatus],
  ['reverse.do', reverseOrder],
  ['refund.do', refundOrder],
]);

/** Small: the largest legitimate call is a register.do with a description. */
const BODY_LIMIT = '16kb';

/** The router mounted at /payment/rest. */
export function restRouter(deps: RestDependencies): Router {
  const router = express.Router();
  router.use((req, res, next) => {
    if (!CALLS.has(callName(req))) return notFound(res);
    if (req.method !== 'POST') return methodNotAllowed(res, 'POST');
    next();
  });
  router.use(express.urlencoded({ extended: false, limit: BODY_LIMIT, parameterLimit: 100 }));
  router.use((req, res, next) => {
    handleCall(deps, req, res).catch(next);
  });
  router.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    const call = callName(req);
    const rejected = bodyError(err);
    if (rejected) {
      deps.log.info({ call, errorCode: '4', reason: rejected.type }, 'call refused');
      res.status(rejected.status === 413 ? 413 : 200).json({ errorCode: '4', errorMessage: 'Unreadable request body' });
      return;
    }
    deps.log.error({ call, err: describeError(err) }, 'call failed');
    if (!res.headersSent) res.status(500).json({ errorCode: '7', errorMessage: 'System error' });
  });
  return router;
}

async function handleCall(deps: RestDependencies, req: Request, res: Response): Promise<void> {
  const name = callName(req);
  const call = CALLS.get(name);
  if (!call) return notFound(res);
  const form = req.is('application/x-www-form-urlencoded') && isRecord(req.body) ? new FormFields(req.body) : undefined;
  let terminal: string | undefined;
  let reply: EpgReply;
  try {
    if (!form) throw new EpgError('4', 'Expected an application/x-www-form-urlencoded body');
    terminal = authenticate(deps.terminals, form.get('userName'), form.get('password'));
    reply = await call(deps.sandbox, terminal, form);
  } catch (err) {
    if (!(err instanceof EpgError)) throw err;
    reply = { errorCode: err.errorCode, errorMessage: err.message };
  }
  // Named fields only: the body holds the password and, for paymentorder.do, the card.
  deps.log.info(
    {
      call: name,
      terminal,
      orderId: form?.peek('orderId') ?? form?.peek('MDORDER') ?? form?.peek('mdOrder') ?? stringField(reply, 'orderId'),
      orderNumber: form?.peek('orderNumber') ?? stringField(reply, 'orderNumber'),
      errorCode: reply.errorCode,
    },
    'call',
  );
  res.json(reply);
}

function callName(req: Request): string {
  return req.path.slice(1);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringField(reply: EpgReply, name: string): string | undefined {
  const value = reply[name];
  return typeof value === 'string' ? value : undefined;
}
