/**
 * Validation of POST /gateway/sessions/ (INTERFACE 4.1, 7.2; DECISIONS D5, D6):
 * every failing field at once, one entry per field, in the order the request
 * gave them, the fields it omitted last. Checks that need the merchant's rate
 * table (currency_unsupported and the converted amount) come after, in
 * create-session.
 */
import { CreateSessionRequest, OffSessionCreateRequest, fieldErrorsOf, findProtoKey, inRequestOrder, isJsonObject, NOT_A_JSON_OBJECT, protoKeyError, redirectUrlError, validatorOf } from '@gateway/contracts';
import { webhookUrlError } from '@gateway/webhook-address';
import { accountCurrency, amountMessage, checkAmount, findCurrency, type AmountCheck, type AmountErrorCode, type Big, type Currency } from '@gateway/money';
import type { FieldError } from '@gateway/problem';

/** A request that passed every check that needs no rate. */
export interface CheckedRequest {
  amount: Big;
  amountText: string;
  currency: Currency;
  body: CreateSessionRequest;
}

export type CheckResult = { ok: true; request: CheckedRequest } | { ok: false; errors: FieldError[] };

const URL_FIELDS = ['return_url', 'cancel_url', 'webhook_url'] as const;

/**
 * The merchant_reference of a payment link's sessions (D19), `<payment link
 * id>-<n>`: kept for them, so that a merchant's own session can never take
 * the reference a payment link will use next (a create with it would answer
 * the merchant's session to the payment link's buyer).
 */
export const PAYMENT_LINK_REFERENCE = /^pl_[0-9A-Za-z]{20,}-[0-9]+$/;
const SCHEMA_ORDER = Object.keys(CreateSessionRequest.properties);

/** The problem of an amount refused with `code`, worded for `currency`. */
export function amountError(code: AmountErrorCode, currency: Currency): FieldError {
  return { field: 'amount', code, message: amountMessage(code, currency) };
}

/**
 * Checks everything of a create request that needs no exchange rate.
 * `forPaymentLink`: the request is a payment link's (D19), the one caller
 * that may use a payment link's merchant_reference.
 */
export function checkCreateRequest(body: unknown, livemode: boolean, options: { allowPrivateWebhooks?: boolean; forPaymentLink?: boolean } = {}): CheckResult {
  if (!isJsonObject(body)) return { ok: false, errors: [NOT_A_JSON_OBJECT] };
  const input = body;
  const errors = new Map<string, FieldError>();
  const add = (error: FieldError) => {
    if (!errors.has(error.field)) errors.set(error.field, error);
  };

  // D24: a charge without the buyer takes its buyer fields from its customer when not given.
  const offSession = input['off_session'] === true;
  const validate = validatorOf(offSession ? OffSessionCreateRequest : CreateSessionRequest);
  if (!validate(input)) {
    // amount has rules of its own below.
    for (const error of fieldErrorsOf(validate.errors, { skip: (field) => field === 'amount' })) add(error);
  }

  for (const field of URL_FIELDS) {
    const value = input[field];
    const refused = typeof value === 'string' && value.length > 0 && value.length <= 2048 ? redirectUrlError(field, value, livemode) : undefined;
    if (refused) add(refused);
  }
  // D11: webhooks never go to loopback, private, link-local or metadata addresses.
  const webhookUrl = input['webhook_url'];
  if (typeof webhookUrl === 'string' && webhookUrl.length > 0 && !errors.has('webhook_url')) {
    const refused = webhookUrlError('webhook_url', webhookUrl, { livemode, allowPrivate: options.allowPrivateWebhooks ?? false });
    if (refused) add(refused);
  }

  const reference = input['merchant_reference'];
  if (!options.forPaymentLink && typeof reference === 'string' && PAYMENT_LINK_REFERENCE.test(reference)) {
    add({
      field: 'merchant_reference',
      code: 'invalid',
      message: 'merchant_reference must not have the form pl_<id>-<number>: such references belong to the sessions of payment links. Use another reference.',
    });
  }

  // D24: a card is saved for a customer only, and a charge without the buyer charges a customer's saved card.
  const saveCard = input['save_card'];
  if (typeof saveCard === 'string' && saveCard !== 'off' && input['customer'] === undefined) {
    add({ field: 'customer', code: 'required', message: `customer is required with save_card ${saveCard}: a card is saved for a customer.` });
  }
  if (offSession) {
    if (input['customer'] === undefined) add({ field: 'customer', code: 'required', message: 'customer is required with off_session: the card charged is a customer\'s.' });
    if (input['payment_method'] === undefined) add({ field: 'payment_method', code: 'required', message: 'payment_method is required with off_session: it names the saved card to charge.' });
    if (typeof saveCard === 'string' && saveCard !== 'off') add({ field: 'save_card', code: 'invalid', message: 'save_card is not taken with off_session: the card charged is saved already.' });
  } else if (input['payment_method'] !== undefined) {
    add({ field: 'payment_method', code: 'invalid', message: 'payment_method is taken with off_session: true only (a charge without the buyer).' });
  }

  const poisoned = findProtoKey(input);
  if (poisoned) add(protoKeyError(poisoned));

  let currency: Currency | undefined = accountCurrency;
  if (typeof input['currency'] === 'string' && !errors.has('currency')) {
    currency = findCurrency(input['currency']);
    if (!currency) add({ field: 'currency', code: 'invalid', message: 'currency must be an ISO 4217 code, such as TND or EUR.' });
  } else if (input['currency'] !== undefined) {
    currency = undefined;
  }

  let amount: AmountCheck | undefined;
  if (currency) {
    amount = checkAmount(input['amount'], currency);
    if (!amount.ok) add(amountError(amount.code, currency));
  } else {
    const shape = checkAmountShape(input['amount']);
    if (shape) add(amountError(shape, accountCurrency));
  }

  if (errors.size > 0) return { ok: false, errors: inRequestOrder([...errors.values()], input, SCHEMA_ORDER) };
  // Without errors the currency is known and the amount passed.
  if (!currency || !amount?.ok) throw new Error('amount check left no error');
  return { ok: true, request: { amount: amount.amount, amountText: amount.text, currency, body: input as CreateSessionRequest } };
}

/** With an unknown currency only the amount's presence, type and format can be judged. */
function checkAmountShape(value: unknown): AmountErrorCode | undefined {
  const check = checkAmount(value, accountCurrency);
  return !check.ok && ['required', 'invalid_type', 'invalid_format'].includes(check.code) ? check.code : undefined;
}
