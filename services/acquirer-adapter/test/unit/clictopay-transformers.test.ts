/** How ClicToPay's answers read: error codes, order statuses and issuer action codes. */
import assert from 'node:assert/strict';
import { declineOf, errorCode } from '../../src/acquirer/clictopay/clictopay.codes.js';
import { buyerFields, deniesAccess, maskedPanOf, toMillimes, toOrderState, toPayResult, toRegisterResult } from '../../src/acquirer/clictopay/clictopay.transformers.js';
import { cardBrand } from '../../src/domain/card.js';

describe('ClicToPay transformers', () => {
  it('when errorCode comes as a string or a number, then it reads the same; not at all, then there is no code; not an integer, then -1', () => {
    assert.equal(errorCode({ errorCode: '5' }), 5);
    assert.equal(errorCode({ errorCode: 0 }), 0);
    assert.equal(errorCode({}), undefined);
    assert.equal(errorCode({ errorCode: 'x' }), -1);
  });

  it('when register answers 2, or 5 while the credentials are denied elsewhere too, then the credentials were rejected; other codes are refusals', () => {
    assert.deepEqual(toRegisterResult({ errorCode: '0', orderId: 'o-1' }), { kind: 'registered', orderId: 'o-1' });
    assert.equal(toRegisterResult({ errorCode: '5', errorMessage: 'Access denied' }).kind, 'credentials-rejected');
    assert.equal(toRegisterResult({ errorCode: '5', errorMessage: 'returnUrl is invalid' }, false).kind, 'refused', 'an invalid parameter');
    assert.deepEqual([deniesAccess({ errorCode: '5' }), deniesAccess({ errorCode: 2 }), deniesAccess({ errorCode: '6' })], [true, true, false]);
    assert.equal(toRegisterResult({ errorCode: '2' }).kind, 'credentials-rejected');
    assert.equal(toRegisterResult({ errorCode: '1', errorMessage: 'duplicate' }).kind, 'refused');
    assert.equal(toRegisterResult({ errorCode: '0' }).kind, 'refused', 'no orderId is no order');
  });

  it('when paymentorder asks for 3-D Secure, then the challenge is read; otherwise the card was submitted', () => {
    assert.deepEqual(toPayResult({ errorCode: '0', acsUrl: 'https://acs', paReq: 'p' }), { kind: 'challenge', acsUrl: 'https://acs', paReq: 'p' });
    assert.deepEqual(toPayResult({ errorCode: '0', redirect: 'x' }), { kind: 'submitted' });
    assert.equal(toPayResult({ errorCode: '5' }).kind, 'refused');
  });

  it('when a step names an ACS or a 3DS Method URL that is no web address, then no browser is sent there: nothing more is read of it', () => {
    assert.deepEqual(toPayResult({ errorCode: '0', acsUrl: 'javascript:alert(1)', paReq: 'p' }), { kind: 'submitted' });
    assert.deepEqual(toPayResult({ errorCode: '0', is3DSVer2: true, acsUrl: '/relative', packedCReq: 'c' }), { kind: 'submitted' });
    assert.deepEqual(toPayResult({ errorCode: '0', is3DSVer2: true, threeDSServerTransId: 't', threeDSMethodURL: 'data:text/html,x', threeDSMethodDataPacked: 'd' }), {
      kind: 'repeat',
      serverTransId: 't',
    });
  });

  it('when a card number arrives whole in the status, then it is masked; a masked one is kept as written', () => {
    assert.equal(maskedPanOf({ pan: '5555555555554444' }), '555555**4444');
    assert.equal(maskedPanOf({ maskedPan: '4242 4242 4242 4242' }), '424242**4242');
    assert.equal(maskedPanOf({ pan: '555555XXXXXX4444' }), '555555XXXXXX4444');
    assert.equal(maskedPanOf({ maskedPan: '424242**4242', pan: '4242424242424242' }), '424242**4242');
    assert.equal(maskedPanOf(undefined), '');
  });

  it('when the buyer goes with the card, then what the acquirer takes is sent and anything it would refuse is left out', () => {
    assert.deepEqual(buyerFields({ ip: '197.15.2.40', email: 'amina@example.tn', phone: '+216 71 000 000' }), { ip: '197.15.2.40', email: 'amina@example.tn', phone: '+216 71 000 000' });
    assert.deepEqual(buyerFields({ ip: '::ffff:10.0.0.1' }), { ip: '::ffff:10.0.0.1' });
    assert.deepEqual(buyerFields({ ip: 'unknown', email: 'not-an-email', phone: '1'.repeat(33) }), {});
    assert.deepEqual(buyerFields(undefined), {});
  });

  it('when the order status is read, then only orderStatus 2 is paid, 1 is held for its approved amount, 6 is declined with its reason, 3 (reversed) declined as nothing taken, 0 and 5 are open', () => {
    assert.deepEqual(toOrderState({ errorCode: '0', orderStatus: 2, amount: 125500, paymentAmountInfo: { depositedAmount: 125500 }, cardAuthInfo: { maskedPan: '424242**4242' } }), {
      kind: 'paid',
      amount: '125.500',
      maskedPan: '424242**4242',
    });
    assert.deepEqual(toOrderState({ errorCode: '0', orderStatus: 6, actionCode: 116 }), {
      kind: 'declined',
      failureCode: 'insufficient_funds',
      failureMessage: 'The card has insufficient funds.',
    });
    assert.deepEqual(toOrderState({ errorCode: '0', orderStatus: 5 }), { kind: 'open' });
    assert.deepEqual(toOrderState({ errorCode: '6' }), { kind: 'not-found' });
    assert.deepEqual(toOrderState({ errorCode: '0', orderStatus: 3 }), {
      kind: 'declined',
      failureCode: 'processing_error',
      failureMessage: 'The card processor reversed this payment; nothing was charged.',
      reversed: true,
    });
    assert.deepEqual(
      toOrderState({ errorCode: '0', orderStatus: 1, amount: 125500, paymentAmountInfo: { approvedAmount: 125500, depositedAmount: 0 }, cardAuthInfo: { maskedPan: '424242**4242' } }),
      { kind: 'held', amount: '125.500', maskedPan: '424242**4242' },
    );
    assert.deepEqual(toOrderState({ errorCode: '0', orderStatus: 2, amount: 125500, paymentAmountInfo: { approvedAmount: 125500, depositedAmount: 60000 } }), {
      kind: 'paid',
      amount: '60.000',
      maskedPan: '',
    });
    // Without paymentAmountInfo, what was deposited is not said, and never taken from `amount`.
    assert.deepEqual(toOrderState({ errorCode: 0, orderStatus: 2, amount: 125500, cardAuthInfo: { pan: '555555**4444' } }), { kind: 'paid', maskedPan: '555555**4444' });
    assert.equal(toOrderState({ errorCode: 0, orderStatus: 2, paymentAmountInfo: { depositedAmount: 'lots' } }), undefined);
    assert.equal(toOrderState({ errorCode: '0', orderStatus: 4 }), undefined, 'refunded without us: an operator\'s case');
    assert.equal(toOrderState({ errorCode: '7' }), undefined);
  });

  it("when the issuer's action code is known, then it maps to D8's failure code; an unknown one is a plain decline", () => {
    assert.deepEqual(
      [100, 116, 101, 2004, 909, 2006, 151017, 151018, 12345].map((code) => declineOf(code).code),
      ['card_declined', 'insufficient_funds', 'expired_card', 'incorrect_cvc', 'processing_error', 'authentication_failed', 'authentication_failed', 'processing_error', 'card_declined'],
    );
  });

  it('when amounts and brands are read, then TND goes to millimes exactly and the brand comes from the number', () => {
    assert.equal(toMillimes('125.500'), '125500');
    assert.equal(toMillimes('0.001'), '1');
    assert.deepEqual(['4242424242424242', '5555555555554444', '2221000000000009', '378282246310005', '6011000000000004'].map(cardBrand), [
      'visa',
      'mastercard',
      'mastercard',
      'amex',
      'unknown',
    ]);
  });

  it('when a paid order saved a card (D24), then its binding and the card\'s expiry are read; without bindingInfo, or without a binding id, none', () => {
    const paid = { errorCode: '0', orderStatus: 2, paymentAmountInfo: { depositedAmount: 1000 }, cardAuthInfo: { maskedPan: '424242**4242', expiration: '203107' } };
    assert.deepEqual(toOrderState({ ...paid, bindingInfo: { clientId: 'cus_1', bindingId: 'b-1' } }), {
      kind: 'paid',
      amount: '1.000',
      maskedPan: '424242**4242',
      binding: { bindingId: 'b-1', expiry: '203107' },
    });
    assert.equal((toOrderState(paid) as { binding?: unknown }).binding, undefined);
    assert.equal((toOrderState({ ...paid, bindingInfo: { clientId: 'cus_1' } }) as { binding?: unknown }).binding, undefined);
    // An expiry written otherwise is not taken: the card is then not saved.
    assert.deepEqual((toOrderState({ ...paid, cardAuthInfo: { expiration: '07/31' }, bindingInfo: { bindingId: 'b-1' } }) as { binding?: unknown }).binding, { bindingId: 'b-1' });
    assert.equal(declineOf(2001).code, 'authentication_required');
  });
});
