/**
 * An operator's probe of a live terminal (terminal.probe): how a
 * getOrderStatusExtended.do answer is described, in every shape ACQUIRER.md
 * "Answers as deployed" lists, and that no card data is read out of it.
 */
import assert from 'node:assert/strict';
import { describeStatusAnswer } from '../../src/acquirer/clictopay/clictopay.answer-shape.js';

/** A paid order as a response-version-3 terminal writes it. */
const PAID = {
  errorCode: 0,
  errorMessage: 'Success',
  orderNumber: 'DZ-7K3M9Q-1',
  orderStatus: 2,
  actionCode: 0,
  amount: 125500,
  cardAuthInfo: { maskedPan: '411111**1111', expiration: '203412', cardholderName: 'AMINA BEN SALAH', approvalCode: '123456', secureAuthInfo: { eci: 5 } },
  paymentAmountInfo: { approvedAmount: 125500, depositedAmount: 125500, refundedAmount: 0, paymentState: 'DEPOSITED' },
};

describe('ClicToPay answers described for a probe of a live terminal', () => {
  it('when a paid order is answered in response version 3, then its error field and type, status, paymentAmountInfo and maskedPan are told, and every member by type', () => {
    assert.deepEqual(describeStatusAnswer(PAID), {
      credentials: 'accepted',
      error_fields: [{ field: 'errorCode', type: 'number', code: 0 }],
      error_message: 'Success',
      order_found: true,
      order_status: 2,
      payment_amount_info: true,
      card_number: { field: 'maskedPan', masked: true },
      shape: {
        errorCode: 'number',
        errorMessage: 'string',
        orderNumber: 'string',
        orderStatus: 'number',
        actionCode: 'number',
        amount: 'number',
        cardAuthInfo: { maskedPan: 'string', expiration: 'string', cardholderName: 'string', approvalCode: 'string', secureAuthInfo: 'object' },
        paymentAmountInfo: { approvedAmount: 'number', depositedAmount: 'number', refundedAmount: 'number', paymentState: 'string' },
      },
    });
  });

  it('when the code is a string, capitalised, nested under error, or absent on success, then the field and type it came in are told', () => {
    const fields = (reply: Record<string, unknown>) => describeStatusAnswer(reply).error_fields;
    assert.deepEqual(fields({ errorCode: '0', orderStatus: '2' }), [{ field: 'errorCode', type: 'string', code: 0 }]);
    assert.deepEqual(fields({ ErrorCode: 6, ErrorMessage: 'Order not found' }), [{ field: 'ErrorCode', type: 'number', code: 6 }]);
    assert.deepEqual(fields({ error: { code: '5', message: 'Access denied' } }), [{ field: 'error.code', type: 'string', code: 5 }]);
    assert.deepEqual(fields({ orderStatus: 2 }), []);
    assert.deepEqual(fields({ errorCode: 'x' }), [{ field: 'errorCode', type: 'string', code: null }]);
    assert.deepEqual(fields({ errorCode: true }), [{ field: 'errorCode', type: 'other', code: null }]);
    // A status written as a string of digits is still the status.
    assert.equal(describeStatusAnswer({ errorCode: '0', orderStatus: '2' }).order_status, 2);
  });

  it('when an answer carries both errorCode 0 and ErrorCode 7, then both are told and the order is not taken as found', () => {
    const described = describeStatusAnswer({ errorCode: 0, ErrorCode: 7, orderStatus: 2 });
    assert.deepEqual(described.error_fields, [
      { field: 'errorCode', type: 'number', code: 0 },
      { field: 'ErrorCode', type: 'number', code: 7 },
    ]);
    assert.equal(described.order_found, false);
    assert.equal(described.credentials, 'unknown');
  });

  it('when the terminal is denied (2 or 5), then the credentials are rejected; an unknown order (6) was looked for, so they were accepted; a system error tells nothing', () => {
    const credentials = (reply: Record<string, unknown>) => describeStatusAnswer(reply).credentials;
    assert.equal(credentials({ errorCode: '5', errorMessage: 'Access denied' }), 'rejected');
    assert.equal(credentials({ ErrorCode: 2 }), 'rejected');
    assert.equal(credentials({ errorCode: '6', errorMessage: 'Order not found' }), 'accepted');
    assert.equal(credentials({ errorCode: '7', errorMessage: 'System error' }), 'unknown');
    assert.equal(credentials({ errorCode: '' }), 'unknown');
    const unknownOrder = describeStatusAnswer({ errorCode: '6', errorMessage: 'Order not found' });
    assert.deepEqual([unknownOrder.order_found, unknownOrder.order_status, unknownOrder.error_message], [false, null, 'Order not found']);
  });

  it('when cardAuthInfo has only pan, then pan is told; a pan in clear is told as not masked, and no card data is in the description', () => {
    const masked = describeStatusAnswer({ errorCode: 0, orderStatus: 2, cardAuthInfo: { pan: '555555XXXXXX4444', expiration: '203412' } });
    assert.deepEqual(masked.card_number, { field: 'pan', masked: true });
    assert.equal(masked.payment_amount_info, false, 'a response version below 3');

    const clear = describeStatusAnswer({
      errorCode: 0,
      orderStatus: 2,
      errorMessage: 'Card 4111111111111111 approved',
      cardAuthInfo: { pan: '4111 1111 1111 1111', cardholderName: 'AMINA BEN SALAH', expiration: '203412' },
      '4111111111111111': 'x',
      pan_4111111111111111: 'x',
    });
    assert.deepEqual(clear.card_number, { field: 'pan', masked: false });
    const text = JSON.stringify(clear);
    for (const data of ['4111', 'AMINA', '203412']) assert.ok(!text.includes(data), `${data} is in ${text}`);
    assert.equal(clear.error_message, 'Card [digits] approved');
    assert.equal(describeStatusAnswer({ errorCode: 0, orderStatus: 0 }).card_number, null, 'a registered order has no card yet');
  });

  it('when an answer has odd members (arrays, nulls, deep objects, names the protocol never writes), then they are typed, not read', () => {
    const shape = describeStatusAnswer({ errorCode: 0, attributes: [{ name: 'mdOrder', value: 'o-1' }], authRefNum: null, merchantOrderParams: { a: { b: 'c' } }, 'bad name': 'x' }).shape;
    assert.deepEqual(shape, { errorCode: 'number', attributes: 'array', authRefNum: 'null', merchantOrderParams: { a: 'object' } });
  });
});
