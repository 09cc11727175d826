/**
 * What a getOrderStatusExtended.do answer looks like, for an operator
 * checking a live terminal before going live (ACQUIRER.md "Answers as
 * deployed"): where it writes its error code and as what, the marks of its
 * response version, which member carries the card number, and the names and
 * JSON types of its members. Of the values, only the error codes, the order
 * status and the acquirer's message (long digit runs blotted out) are read
 * out: no card data can leave here.
 */
import type { ProbedAnswer } from '@gateway/contracts';
import { acquirerMessage, ERROR_CODE_FIELDS, readCode, UNREADABLE_CODE, type Reply } from './clictopay.codes.js';

type ErrorField = ProbedAnswer['error_fields'][number];

function isObject(value: unknown): value is Reply {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A whole number written as a number or as a string of digits; null for anything else. */
function wholeNumber(value: unknown): number | null {
  const code = readCode(value);
  return code === UNREADABLE_CODE ? null : code;
}

/** Each place the answer writes an error code, with its type and the code it reads as. */
function errorFields(reply: Reply): ErrorField[] {
  return ERROR_CODE_FIELDS.flatMap(([field, read]) => {
    const value = read(reply);
    if (value === undefined || value === null) return [];
    const type = typeof value === 'string' ? 'string' : typeof value === 'number' ? 'number' : 'other';
    return [{ field, type, code: wholeNumber(value) }];
  });
}

/**
 * 2 and 5 deny access (5 is also "invalid parameter value": an order number
 * has none to refuse). 6 is "no such order": the terminal was let in to look.
 * Several codes must agree; an unreadable one tells nothing.
 */
function credentialsOf(fields: readonly ErrorField[]): ProbedAnswer['credentials'] {
  const codes = fields.map((field) => field.code);
  if (codes.some((code) => code === 2 || code === 5)) return 'rejected';
  return codes.every((code) => code === 0 || code === 6) ? 'accepted' : 'unknown';
}

function errorMessage(reply: Reply): string | null {
  // An acquirer's message could quote a card number; what an operator needs of it are its words.
  return acquirerMessage(reply)?.replace(/\d{12,}/g, '[digits]') ?? null;
}

/** A card number as a member holds it: masked when anything but digits and spaces is in it. */
function cardNumber(reply: Reply): ProbedAnswer['card_number'] {
  const card = reply.cardAuthInfo;
  if (!isObject(card)) return null;
  for (const field of ['maskedPan', 'pan'] as const) {
    const value = card[field];
    if (typeof value === 'string') return { field, masked: !/^[\d ]+$/.test(value) };
  }
  return null;
}

/** Member names as the protocol writes them; anything else (or a name holding a long digit run) is left out. */
const MEMBER_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const MAX_MEMBERS = 100;

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'array' : typeof value;
}

/** Each member's JSON type by name, objects one level down: never a value. */
function shapeOf(reply: Reply): ProbedAnswer['shape'] {
  const members = (object: Reply) => Object.entries(object).filter(([name]) => MEMBER_NAME.test(name) && !/\d{12}/.test(name)).slice(0, MAX_MEMBERS);
  return Object.fromEntries(
    members(reply).map(([name, value]) => [name, isObject(value) ? Object.fromEntries(members(value).map(([inner, innerValue]) => [inner, jsonType(innerValue)])) : jsonType(value)]),
  );
}

/** Describes a getOrderStatusExtended.do answer (a JSON object) for an operator's probe of a terminal. */
export function describeStatusAnswer(reply: Reply): ProbedAnswer {
  const fields = errorFields(reply);
  const status = wholeNumber(reply.orderStatus);
  return {
    credentials: credentialsOf(fields),
    error_fields: fields,
    error_message: errorMessage(reply),
    order_found: status !== null && fields.every((field) => field.code === 0),
    order_status: status,
    payment_amount_info: isObject(reply.paymentAmountInfo),
    card_number: cardNumber(reply),
    shape: shapeOf(reply),
  };
}
