/**
 * Validation of POST /gateway/payment_links/ (D19, with INTERFACE 7.2 and D6):
 * every failing field at once, one entry per field, in the order the request
 * gave them. Amounts are decimal strings checked as a session's amount is
 * (packages/money); a fixed price keeps its currency, converted by
 * session.create at each payment.
 */
import { CreatePaymentLinkRequest, fieldErrorsOf, findProtoKey, inRequestOrder, isJsonObject, NOT_A_JSON_OBJECT, protoKeyError, redirectUrlError, validatorOf } from '@gateway/contracts';
import { accountCurrency, amountMessage, checkAmount, findCurrency, type Big, type Currency } from '@gateway/money';
import type { FieldError } from '@gateway/problem';

/** A link request that passed every check. */
interface CheckedLink {
  body: CreatePaymentLinkRequest;
  /** The fixed price, written at its currency's precision; undefined for an open amount. */
  price?: { text: string; currency: Currency };
  /** Open amount bounds, TND at 3 decimals. */
  min?: string;
  max?: string;
  expiresAt?: Date;
}

export type LinkCheck = { ok: true; link: CheckedLink } | { ok: false; errors: FieldError[] };

const AMOUNT_FIELDS = new Set(['amount', 'amount_min', 'amount_max', 'currency']);

/** Checks a create request of a payment link made at `now`. */
export function checkLinkRequest(body: unknown, livemode: boolean, now: Date): LinkCheck {
  if (!isJsonObject(body)) return { ok: false, errors: [NOT_A_JSON_OBJECT] };
  const input = body;
  const errors = new Map<string, FieldError>();
  const add = (error: FieldError) => {
    if (!errors.has(error.field)) errors.set(error.field, error);
  };

  const validate = validatorOf(CreatePaymentLinkRequest);
  if (!validate(input)) for (const error of fieldErrorsOf(validate.errors, { skip: (field) => AMOUNT_FIELDS.has(field) })) add(error);

  const returnUrl = input['return_url'];
  if (typeof returnUrl === 'string' && returnUrl.length > 0 && returnUrl.length <= 2048 && !errors.has('return_url')) {
    const refused = redirectUrlError('return_url', returnUrl, livemode);
    if (refused) add(refused);
  }
  const poisoned = findProtoKey(input);
  if (poisoned) add(protoKeyError(poisoned));

  const link: CheckedLink = { body: input as CreatePaymentLinkRequest };
  if (input['open_amount'] === true) {
    for (const field of ['amount', 'currency'] as const) {
      if (input[field] !== undefined) add({ field, code: 'invalid', message: `${field} is not taken with open_amount: the buyer pays in TND.` });
    }
    const min = boundOf(input, 'amount_min', add);
    const max = boundOf(input, 'amount_max', add);
    if (min && max && min.amount.gt(max.amount)) add({ field: 'amount_max', code: 'invalid', message: 'amount_max must not be less than amount_min.' });
    if (min) link.min = min.text;
    if (max) link.max = max.text;
  } else {
    for (const field of ['amount_min', 'amount_max'] as const) {
      if (input[field] !== undefined) add({ field, code: 'invalid', message: `${field} is taken only with open_amount: true.` });
    }
    const price = priceOf(input, add);
    if (price) link.price = price;
  }

  const expiresAt = input['expires_at'];
  if (typeof expiresAt === 'string' && !errors.has('expires_at')) {
    const at = new Date(expiresAt);
    if (!(at.getTime() > now.getTime())) add({ field: 'expires_at', code: 'invalid', message: 'expires_at must be in the future.' });
    else link.expiresAt = at;
  }

  if (errors.size > 0) return { ok: false, errors: inRequestOrder([...errors.values()], input, Object.keys(CreatePaymentLinkRequest.properties)) };
  return { ok: true, link };
}

/** The fixed price: `amount` (required without open_amount) at the precision of `currency` (TND by default). */
function priceOf(input: Record<string, unknown>, add: (error: FieldError) => void): CheckedLink['price'] {
  let currency: Currency | undefined = accountCurrency;
  const code = input['currency'];
  if (code !== undefined) {
    currency = typeof code === 'string' ? findCurrency(code) : undefined;
    if (!currency) add({ field: 'currency', code: 'invalid', message: 'currency must be an ISO 4217 code, such as TND or EUR.' });
  }
  const check = checkAmount(input['amount'], currency ?? accountCurrency);
  if (!check.ok) {
    // With an unknown currency only the amount's presence, type and format can be judged.
    if (currency || ['required', 'invalid_type', 'invalid_format'].includes(check.code)) add({ field: 'amount', code: check.code, message: amountMessage(check.code, currency ?? accountCurrency) });
    return undefined;
  }
  return currency ? { text: check.text, currency } : undefined;
}

/** An open amount's optional bound, a TND amount as every amount is checked. */
function boundOf(input: Record<string, unknown>, field: 'amount_min' | 'amount_max', add: (error: FieldError) => void): { amount: Big; text: string } | undefined {
  if (input[field] === undefined) return undefined;
  const check = checkAmount(input[field], accountCurrency);
  if (!check.ok) {
    add({ field, code: check.code, message: amountMessage(check.code, accountCurrency).replace(/^amount/, field) });
    return undefined;
  }
  return { amount: check.amount, text: check.text };
}
