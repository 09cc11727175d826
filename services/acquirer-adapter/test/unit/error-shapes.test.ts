/**
 * Every way an acquirer answer writes its error code (ACQUIRER.md "Answers as
 * deployed"): errorCode, ErrorCode or error.code; a string or a number; absent;
 * two that disagree; one that cannot be read. One test per shape.
 */
import assert from 'node:assert/strict';
import { acquirerMessage, errorCode } from '../../src/acquirer/clictopay/clictopay.codes.js';
import { toOperationResult, toOrderState, toPayResult, toRegisterResult } from '../../src/acquirer/clictopay/clictopay.transformers.js';

describe('Acquirer error shapes', () => {
  it('when errorCode is a string, then it is read as its number', () => {
    assert.equal(errorCode({ errorCode: '7' }), 7);
    assert.equal(toOperationResult({ errorCode: '7', errorMessage: 'System error' }).kind, 'unconfirmed');
  });

  it('when errorCode is a number, then it is read as it is', () => {
    assert.equal(errorCode({ errorCode: 6 }), 6);
    assert.deepEqual(toOrderState({ errorCode: 6 }), { kind: 'not-found' });
  });

  it('when the code is capitalised (ErrorCode), as a string or a number, then it is read like errorCode, with ErrorMessage', () => {
    assert.equal(errorCode({ ErrorCode: '5' }), 5);
    assert.equal(errorCode({ ErrorCode: 7 }), 7);
    assert.equal(acquirerMessage({ ErrorCode: '5', ErrorMessage: 'Access denied' }), 'Access denied');
    assert.deepEqual(toOperationResult({ ErrorCode: '7', ErrorMessage: 'System error' }), { kind: 'unconfirmed', errorCode: 7, message: 'System error' });
  });

  it('when the code is in an error object (error.code), then it is read there, with error.message', () => {
    assert.equal(errorCode({ success: false, error: { code: '5', message: 'Access denied' } }), 5);
    assert.equal(errorCode({ error: { code: 7 } }), 7);
    assert.equal(acquirerMessage({ error: { code: '5', message: 'Access denied' } }), 'Access denied');
    assert.equal(toPayResult({ success: false, error: { code: '5', message: 'Access denied' } }).kind, 'refused');
    // An error written as text is no code.
    assert.equal(errorCode({ errorCode: 0, error: 'Error 3-D Secure authorization.' }), 0);
  });

  it('when no code is written at all, then there is none: a success for register, paymentorder and status, silent for an order-management call', () => {
    assert.equal(errorCode({}), undefined);
    assert.equal(errorCode({ errorCode: '', ErrorCode: null }), undefined);
    assert.equal(toRegisterResult({ orderId: 'o-1', formUrl: 'https://x' }).kind, 'registered');
    assert.deepEqual(toPayResult({ redirect: 'https://shop.example/r' }), { kind: 'submitted' });
    assert.deepEqual(toOrderState({ orderStatus: 5 }), { kind: 'open' });
    assert.deepEqual(toOperationResult({}), { kind: 'silent' });
  });

  it('when two codes disagree (errorCode 0, ErrorCode 7), then the failure is read, whichever field it is in', () => {
    assert.equal(errorCode({ errorCode: 0, ErrorCode: 7 }), 7);
    assert.equal(errorCode({ errorCode: '7', ErrorCode: '0' }), 7);
    assert.equal(errorCode({ errorCode: '0', error: { code: '5' } }), 5);
    assert.deepEqual(toOperationResult({ errorCode: 0, ErrorCode: 7, ErrorMessage: 'System error' }), { kind: 'unconfirmed', errorCode: 7, message: 'System error' });
    assert.equal(toPayResult({ errorCode: '0', ErrorCode: '5', acsUrl: 'https://acs', paReq: 'p' }).kind, 'refused');
  });

  it('when two codes say two different failures, then neither is trusted: -1, unconfirmed', () => {
    assert.equal(errorCode({ errorCode: 5, ErrorCode: 7 }), -1);
    assert.equal(toOperationResult({ errorCode: 5, ErrorCode: 7 }).kind, 'unconfirmed');
  });

  it('when a code cannot be read (text, a fraction, an object, a boolean), then it is -1: never a success', () => {
    for (const code of ['x', '7a', 1.5, { value: 0 }, true]) {
      assert.equal(errorCode({ errorCode: code }), -1, JSON.stringify(code));
      assert.deepEqual(toOperationResult({ ErrorCode: code }), { kind: 'unconfirmed', errorCode: -1, message: 'unreadable answer from the acquirer' });
    }
    assert.equal(errorCode({ errorCode: 0, ErrorCode: 'oops' }), -1);
    assert.equal(toOrderState({ errorCode: 'oops', orderStatus: 2 }), undefined);
  });
});
