/**
 * register.do and registerPreAuth.do: a new order (status 0) for this terminal,
 * and the address of its payment page. Both check the same fields; only the
 * second makes a two-phase order, whose approval holds the funds.
 */
import { randomUUID } from 'node:crypto';
import { parseMillimes } from './amount.js';
import { EpgError, invalid, type CallFields } from './epg-error.js';
import { registeredOrder, TND } from './order.js';
import { required, type CallParams, type Sandbox } from './sandbox.js';
import { isWebUrl } from './urls.js';

const MAX_ORDER_NUMBER_LENGTH = 32;
const LANGUAGES: readonly string[] = ['fr', 'en', 'ar'];

/** register.do: a one-phase order, deposited as soon as it is approved. */
export function registerOrder(sandbox: Sandbox, terminal: string, params: CallParams): CallFields {
  return register(sandbox, terminal, params, false);
}

/** registerPreAuth.do: a two-phase order, held when approved until deposit.do or reverse.do. */
export function registerPreAuth(sandbox: Sandbox, terminal: string, params: CallParams): CallFields {
  return register(sandbox, terminal, params, true);
}

/** Validates the order, refuses a number this terminal already used, keeps it as status 0. */
function register(sandbox: Sandbox, terminal: string, params: CallParams, twoPhase: boolean): CallFields {
  const orderNumber = required(params, 'orderNumber');
  const amountDigits = required(params, 'amount');
  const returnUrl = required(params, 'returnUrl');

  if (orderNumber.length > MAX_ORDER_NUMBER_LENGTH) throw invalid('orderNumber');
  const amount = parseMillimes(amountDigits);
  if (amount === undefined) throw invalid('amount');
  if ((params.get('currency') ?? TND) !== TND) throw new EpgError('3', 'Unknown currency');
  if (!isWebUrl(returnUrl)) throw invalid('returnUrl');
  const failUrl = params.get('failUrl');
  if (failUrl !== undefined && !isWebUrl(failUrl)) throw invalid('failUrl');
  const language = params.get('language');
  if (language !== undefined && !LANGUAGES.includes(language)) throw invalid('language');
  const timeout = params.get('sessionTimeoutSecs');
  if (timeout !== undefined && !/^[1-9][0-9]{0,8}$/.test(timeout)) throw invalid('sessionTimeoutSecs');
  // description and jsonParams are accepted and ignored, as the sandbox has no use for them.

  const order = registeredOrder({
    orderId: randomUUID(),
    terminal,
    orderNumber,
    amount,
    returnUrl,
    failUrl,
    language: language ?? 'fr',
    registeredAt: sandbox.now().getTime(),
    twoPhase,
  });
  if (!sandbox.store.add(order)) throw new EpgError('1', 'Order with this number was already processed');
  return {
    orderId: order.orderId,
    formUrl: `${sandbox.publicUrl}/payment/merchants/sandbox/payment.html?mdOrder=${encodeURIComponent(order.orderId)}`,
  };
}
