/**
 * How each call writes its error code, as deployments of the protocol do
 * (ACQUIRER.md "Answers as deployed"): errorCode as a string (register and
 * paymentorder answers, the 3-D Secure finishes), absent on a successful
 * register.do; a number on getOrderStatusExtended.do; ErrorCode, capitalised,
 * on reverse.do, refund.do and deposit.do. The message follows its code's spelling.
 */
import type { CallFields, ErrorCode } from '../domain/epg-error.js';

export type AnswerShape = 'errorCode' | 'numericErrorCode' | 'ErrorCode' | 'silentSuccess';

const SUCCESS_MESSAGE = 'Success';

/** The JSON answer of a call: its code and message first, then the call's fields. */
export function answerOf(shape: AnswerShape, code: ErrorCode, message: string, fields: CallFields = {}): Record<string, unknown> {
  switch (shape) {
    case 'silentSuccess':
      return code === '0' ? { ...fields } : { errorCode: code, errorMessage: message, ...fields };
    case 'numericErrorCode':
      return { errorCode: Number(code), errorMessage: message, ...fields };
    case 'ErrorCode':
      return { ErrorCode: code, ErrorMessage: message, ...fields };
    default:
      return { errorCode: code, errorMessage: message, ...fields };
  }
}

/** The answer of a call that succeeded. */
export function successOf(shape: AnswerShape, fields: CallFields): Record<string, unknown> {
  return answerOf(shape, '0', SUCCESS_MESSAGE, fields);
}
