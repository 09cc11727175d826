/**
 * register.do and registerPreAuth.do: a new order (status 0) for this terminal,
 * and the address of its payment page. Both check the same fields; only the
 * second makes a two-phase order, whose approval holds the funds. clientId
 * names the merchant's customer, and features=FORCE_CREATE_BINDING saves the
 * card for that customer once paid (ACQUIRER.md "Saved cards (D24)").
 */
import { randomUUID } from 'node:crypto';
import { parseMillimes } from './amount.js';
import { MAX_CLIENT_ID_LENGTH } from './binding.js';
import { duplicateOrderNumber, invalid, missing, unknownCurrency, type CallFields } from './epg-error.js';
import { MAX_ORDER_NUMBER_LENGTH, registeredOrder, TND } from './order.js';
import { required, type CallParams, type Sandbox } from './sandbox.js';
import { isWebUrl } from './urls.js';

const LANGUAGES: readonly string[] = ['fr', 'en', 'ar'];
/** The one feature the sandbox knows: save the card for clientId once paid. */
const FORCE_CREATE_BINDING = 'FORCE_CREATE_BINDING';

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
  if ((params.get('currency') ?? TND) !== TND) throw unknownCurrency();
  if (!isWebUrl(returnUrl)) throw invalid('returnUrl');
  const failUrl = params.get('failUrl');
  if (failUrl !== undefined && !isWebUrl(failUrl)) throw invalid('failUrl');
  const language = params.get('language');
  if (language !== undefined && !LANGUAGES.includes(language)) throw invalid('language');
  const timeout = params.get('sessionTimeoutSecs');
  if (timeout !== undefined && !/^[1-9][0-9]{0,8}$/.test(timeout)) throw invalid('sessionTimeoutSecs');
  const clientId = params.get('clientId');
  if (clientId !== undefined && clientId.length > MAX_CLIENT_ID_LENGTH) throw invalid('clientId');
  const features = params.get('features');
  if (features !== undefined && features !== FORCE_CREATE_BINDING) throw invalid('features');
  // A card saved for nobody could never be charged: the binding needs its customer.
  if (features === FORCE_CREATE_BINDING && clientId === undefined) throw missing('clientId');
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
    ...(clientId !== undefined && { clientId }),
    saveCard: features === FORCE_CREATE_BINDING,
  });
  if (!sandbox.store.add(order)) throw duplicateOrderNumber();
  return {
    orderId: order.orderId,
    formUrl: `${sandbox.publicUrl}/payment/merchants/sandbox/payment.html?mdOrder=${encodeURIComponent(order.orderId)}`,
  };
}
