/**
 * How ClicToPay (BPC/RBS REST) answers say what happened, as deployments
 * write it (ACQUIRER.md "Answers as deployed"): the error code, in errorCode,
 * ErrorCode or error.code, a string or a number, or absent; its message; and
 * the issuer's action codes.
 */

/** A reply as it arrives: JSON whose fields we read defensively. */
export type Reply = Record<string, unknown>;

/** A code that is there but cannot be read, or two codes that say different failures. */
export const UNREADABLE_CODE = -1;

function nestedError(reply: Reply): Reply | undefined {
  return typeof reply.error === 'object' && reply.error !== null && !Array.isArray(reply.error) ? (reply.error as Reply) : undefined;
}

/** Where deployments write the error code: the protocol's own member, a capitalised one, or a nested object. */
export const ERROR_CODE_FIELDS = [
  ['errorCode', (reply: Reply): unknown => reply.errorCode],
  ['ErrorCode', (reply: Reply): unknown => reply.ErrorCode],
  ['error.code', (reply: Reply): unknown => nestedError(reply)?.code],
] as const;

/** The same places for the words that go with it. */
const ERROR_MESSAGE_FIELDS: readonly ((reply: Reply) => unknown)[] = [(reply) => reply.errorMessage, (reply) => reply.ErrorMessage, (reply) => nestedError(reply)?.message];

/**
 * The answer's error code: undefined when it carries none at all (a success
 * for most calls, not for the order-management ones: clictopay.client.ts).
 * Every field deployments use is read; when they disagree, a failure wins
 * over success (errorCode 0 with ErrorCode 7 is 7), and two different
 * failures, like any code that is not an integer, read as UNREADABLE_CODE.
 */
export function errorCode(reply: Reply): number | undefined {
  const written = ERROR_CODE_FIELDS.map(([, read]) => read(reply)).filter((value) => value !== undefined && value !== null && value !== '');
  if (written.length === 0) return undefined;
  const codes = written.map(readCode);
  if (codes.includes(UNREADABLE_CODE)) return UNREADABLE_CODE;
  const failures = [...new Set(codes.filter((code) => code !== 0))];
  if (failures.length === 0) return 0;
  return failures.length === 1 ? (failures[0] as number) : UNREADABLE_CODE;
}

/** A code written as a whole number or a string of digits; UNREADABLE_CODE for anything else. */
export function readCode(value: unknown): number {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : UNREADABLE_CODE;
  if (typeof value === 'string' && /^\s*-?[0-9]{1,9}\s*$/.test(value)) return Number(value);
  return UNREADABLE_CODE;
}

/** The acquirer's own words for an answer, cut to 200 characters; undefined when it says none. */
export function acquirerMessage(reply: Reply): string | undefined {
  for (const read of ERROR_MESSAGE_FIELDS) {
    const value = read(reply);
    if (typeof value === 'string' && value.length > 0) return value.slice(0, 200);
  }
  return undefined;
}

/** What each issuer action code means for the buyer (D8's outcomes, ACQUIRER.md "3-D Secure 2"). */
const ACTION_CODES: Readonly<Record<number, { code: string; message: string }>> = {
  100: { code: 'card_declined', message: 'The card was declined.' },
  116: { code: 'insufficient_funds', message: 'The card has insufficient funds.' },
  101: { code: 'expired_card', message: 'The card has expired.' },
  2004: { code: 'incorrect_cvc', message: 'The security code is incorrect.' },
  909: { code: 'processing_error', message: 'The payment could not be processed.' },
  2006: { code: 'authentication_failed', message: '3-D Secure authentication failed.' },
  // The issuer refused authentication (3-D Secure 2).
  151017: { code: 'authentication_failed', message: '3-D Secure authentication failed.' },
  // The issuer's processing timed out.
  151018: { code: 'processing_error', message: 'The payment could not be processed.' },
  // D24: the issuer wants the cardholder present to authenticate a charge made without them.
  2001: { code: 'authentication_required', message: 'The card issuer requires the cardholder to authenticate this payment.' },
};

/** The failure code and message of an acquirer action code (ACQUIRER.md); any other code is a plain decline. */
export function declineOf(actionCode: number): { code: string; message: string } {
  return ACTION_CODES[actionCode] ?? { code: 'card_declined', message: 'The card was declined.' };
}
