/**
 * /payment/rest/: every call takes the same path: known call and POST, a form
 * body, the terminal's credentials, then the call itself; any refusal becomes
 * HTTP 200 with its code, written in the call's answer shape
 * (answer-shapes.ts), and one log line tells what happened. recurrentPayment.do
 * is served at /payment/recurrentPayment.do as well, where the real gateway
 * has it, the same way.
 */
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { describeError, type Logger } from '@gateway/observability';
import { bodyRefusal, formBody, serverSpans } from '@gateway/runtime';
import { depositOrder } from '../domain/deposit-order.js';
import { EpgError, type ErrorCode } from '../domain/epg-error.js';
import { finish3ds, finish3dsVer2 } from '../domain/finish-3ds.js';
import { getOrderStatus } from '../domain/get-order-status.js';
import { listBindings } from '../domain/list-bindings.js';
import { payOrder } from '../domain/pay-order.js';
import { payWithBinding } from '../domain/pay-with-binding.js';
import { recurrentPayment } from '../domain/recurrent-payment.js';
import { refundOrder } from '../domain/refund-order.js';
import { registerOrder, registerPreAuth } from '../domain/register-order.js';
import { reverseOrder } from '../domain/reverse-order.js';
import type { Call, Sandbox } from '../domain/sandbox.js';
import { authenticate } from '../domain/terminals.js';
import { unbindCard } from '../domain/unbind-card.js';
import { answerOf, successOf, type AnswerShape } from './answer-shapes.js';
import { FormFields } from './form.js';
import { methodNotAllowed, notFound } from './responses.js';

export interface RestDependencies {
  readonly sandbox: Sandbox;
  readonly terminals: ReadonlyMap<string, string>;
  readonly log: Logger;
}

interface CallRoute {
  readonly call: Call;
  readonly shape: AnswerShape;
}

const REST_PATH = '/payment/rest/';
const RECURRENT_PAYMENT = 'recurrentPayment.do';
/** ACQUIRER.md "Saved cards": the real gateway serves recurrentPayment.do outside /payment/rest/. */
const RECURRENT_PAYMENT_PATH = `/payment/${RECURRENT_PAYMENT}`;

/** The calls this deployment serves: without finish3dsVer2Payment.do when so configured (it is then a 404, as on a deployment without it). */
function callsOf(sandbox: Sandbox): ReadonlyMap<string, CallRoute> {
  return new Map<string, CallRoute>([
    ['register.do', { call: registerOrder, shape: 'silentSuccess' }],
    ['registerPreAuth.do', { call: registerPreAuth, shape: 'silentSuccess' }],
    ['paymentorder.do', { call: payOrder, shape: 'errorCode' }],
    ['finish3dsPayment.do', { call: finish3ds, shape: 'errorCode' }],
    ...(sandbox.finish3dsVer2 ? ([['finish3dsVer2Payment.do', { call: finish3dsVer2, shape: 'errorCode' }]] as const) : []),
    ['getOrderStatusExtended.do', { call: getOrderStatus, shape: 'numericErrorCode' }],
    ['deposit.do', { call: depositOrder, shape: 'ErrorCode' }],
    ['reverse.do', { call: reverseOrder, shape: 'ErrorCode' }],
    ['refund.do', { call: refundOrder, shape: 'ErrorCode' }],
    ['paymentOrderBinding.do', { call: payWithBinding, shape: 'errorCode' }],
    [RECURRENT_PAYMENT, { call: recurrentPayment, shape: 'errorCode' }],
    ['getBindings.do', { call: listBindings, shape: 'errorCode' }],
    ['unBindCard.do', { call: unbindCard, shape: 'errorCode' }],
  ]);
}

/** Small: the largest legitimate call is a register.do with a description. */
const FORM_LIMITS = { maxBytes: 16 * 1024, maxFields: 100 };

/**
 * POST on each call's path, the call's name exactly as the acquirer spells it
 * (case included, no trailing slash), and on recurrentPayment.do's second
 * path; another method on them is 405, and an unknown name or any other path
 * is left to the app's 404.
 */
export function restRouter(deps: RestDependencies): Router {
  const calls = callsOf(deps.sandbox);
  const router = express.Router({ caseSensitive: true, strict: true });
  const answer = async (name: string, req: Request, res: Response) => {
    const body = req.body as Record<string, unknown> | undefined;
    const reply = await handleCall(deps, name, calls.get(name) as CallRoute, body && new FormFields(body));
    json(res, 200, reply);
  };
  router.use([REST_PATH, RECURRENT_PAYMENT_PATH], serverSpans());
  router
    .route(`${REST_PATH}:call`)
    .all((req, res, next) => {
      // Kept for the error steps below, which run outside the route and see no params.
      res.locals[CALL] = callOf(req);
      if (calls.has(callOf(req))) next();
      else notFound(res);
    })
    .post(formBody(FORM_LIMITS), (req, res) => answer(callOf(req), req, res))
    .all((_req, res) => methodNotAllowed(res, 'POST'));
  router
    .route(RECURRENT_PAYMENT_PATH)
    .all((_req, res, next) => {
      res.locals[CALL] = RECURRENT_PAYMENT;
      next();
    })
    .post(formBody(FORM_LIMITS), (req, res) => answer(RECURRENT_PAYMENT, req, res))
    .all((_req, res) => methodNotAllowed(res, 'POST'));
  const shapeOf = (res: Response): AnswerShape => calls.get(String(res.locals[CALL]))?.shape ?? 'errorCode';
  router.use([REST_PATH, RECURRENT_PAYMENT_PATH], (err: unknown, _req: Request, res: Response, next: NextFunction) => {
    const refused = bodyRefusal(err);
    if (!refused) return next(err);
    deps.log.info({ call: res.locals[CALL] as unknown, errorCode: '4', reason: refused.type }, 'call refused');
    // Too large is said with 413 as well; anything else unreadable is a business error (HTTP 200).
    json(res, refused.status === 413 ? 413 : 200, answerOf(shapeOf(res), '4', 'Unreadable request body'));
  });
  router.use([REST_PATH, RECURRENT_PAYMENT_PATH], (err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    deps.log.error({ call: res.locals[CALL] as unknown, err: describeError(err) }, 'call failed');
    if (!res.headersSent) json(res, 500, answerOf(shapeOf(res), '7', 'System error'));
  });
  return router;
}

async function handleCall(deps: RestDependencies, name: string, route: CallRoute, form: FormFields | undefined): Promise<Record<string, unknown>> {
  let terminal: string | undefined;
  let code: ErrorCode = '0';
  let reply: Record<string, unknown>;
  try {
    if (!form) throw new EpgError('4', 'Expected an application/x-www-form-urlencoded body');
    terminal = authenticate(deps.terminals, form.get('userName'), form.get('password'));
    reply = successOf(route.shape, await route.call(deps.sandbox, terminal, form));
  } catch (err) {
    if (!(err instanceof EpgError)) throw err;
    code = err.errorCode;
    reply = answerOf(route.shape, err.errorCode, err.message);
  }
  // Named fields only: the body holds the password and, for paymentorder.do, the card.
  deps.log.info(
    {
      call: name,
      terminal,
      orderId: form?.peek('orderId') ?? form?.peek('MDORDER') ?? form?.peek('mdOrder') ?? stringField(reply, 'orderId'),
      orderNumber: form?.peek('orderNumber') ?? stringField(reply, 'orderNumber'),
      errorCode: code,
    },
    'call',
  );
  return reply;
}

/** res.locals' key of the call a request names. */
const CALL = 'call';

function callOf(req: Request): string {
  return String(req.params['call']);
}

function json(res: Response, status: number, reply: Record<string, unknown>): void {
  res.status(status).type('application/json; charset=utf-8').send(JSON.stringify(reply));
}

function stringField(reply: Record<string, unknown>, name: string): string | undefined {
  const value = reply[name];
  return typeof value === 'string' ? value : undefined;
}
