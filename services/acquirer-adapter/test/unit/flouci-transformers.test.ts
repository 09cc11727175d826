/** Flouci's requests and answers in the adapter's terms (WALLET.md, D26): every mapping of flouci.transformers.ts. */
import assert from 'node:assert/strict';
import type { OrderRequest, RefundRequest } from '../../src/acquirer/acquirer.js';
import {
  flouciMessage,
  fromFlouciMillimes,
  generatePaymentBody,
  isRefusal,
  keysRejected,
  partialCaptureRefusal,
  partialRefundRefusal,
  toFlouciMillimes,
  toOperationResult,
  toOrderState,
  toRegisterResult,
  unansweredOperation,
} from '../../src/acquirer/flouci/flouci.transformers.js';

const WALLET = {
  trackingId: 'pa_01J0FLOUCI',
  successUrl: 'https://pay.example.tn/checkout/tok/flouci/pa_01J0FLOUCI/return',
  failUrl: 'https://pay.example.tn/checkout/tok/flouci/pa_01J0FLOUCI/return?failed=1',
  webhookUrl: 'https://pay.example.tn/flouci/webhook/pa_01J0FLOUCI',
  timeoutSeconds: 900,
};

function order(fields: Partial<OrderRequest> = {}): OrderRequest {
  return {
    orderNumber: 'TST-ABC123',
    amount: '12.500',
    returnUrl: 'https://pay.example.tn/checkout/tok/pa_01J0FLOUCI',
    description: 'Two books',
    language: 'fr',
    twoPhase: false,
    wallet: WALLET,
    ...fields,
  };
}

/** A verify_payment answer with `result` over a paid payment's. */
function verified(result: Record<string, unknown>): Record<string, unknown> {
  return { success: true, result: { type: 'wallet', amount: 12500, developer_tracking_id: WALLET.trackingId, ...result }, code: 0 };
}

describe('Flouci transformers', () => {
  describe('amounts', () => {
    it('when a TND amount goes to Flouci, then it is whole millimes, exactly', () => {
      assert.equal(toFlouciMillimes('12.500'), 12500);
      assert.equal(toFlouciMillimes('0.001'), 1);
      assert.equal(toFlouciMillimes('999999.999'), 999999999);
      // 0.1 + 0.2 would not survive float arithmetic; string arithmetic keeps it.
      assert.equal(toFlouciMillimes('0.3'), 300);
      assert.equal(toFlouciMillimes('7'), 7000);
    });

    it('when an amount has more than three decimals or is not a decimal, then it is refused rather than rounded', () => {
      assert.throws(() => toFlouciMillimes('1.0005'));
      assert.throws(() => toFlouciMillimes('abc'));
      assert.throws(() => toFlouciMillimes('-1.000'));
    });

    it('when Flouci writes millimes as a number or a string of digits, then they read as TND; anything else is unread', () => {
      assert.equal(fromFlouciMillimes(12500), '12.500');
      assert.equal(fromFlouciMillimes('125500'), '125.500');
      assert.equal(fromFlouciMillimes(1), '0.001');
      assert.equal(fromFlouciMillimes(0), '0.000');
      for (const bad of [-1, 12.5, '12.5', '', 'abc', null, undefined, {}, Number.MAX_SAFE_INTEGER + 2]) assert.equal(fromFlouciMillimes(bad), undefined, String(bad));
    });
  });

  describe('generate_payment', () => {
    it('when a one-phase order starts, then the body carries the millimes, the attempt, the links, the timeout, no card and no pre-authorization', () => {
      assert.deepEqual(generatePaymentBody(order()), {
        amount: 12500,
        developer_tracking_id: WALLET.trackingId,
        success_link: WALLET.successUrl,
        fail_link: WALLET.failUrl,
        webhook: WALLET.webhookUrl,
        session_timeout_secs: 900,
        accept_card: false,
        pre_auth: false,
      });
    });

    it('when a two-phase order starts, then it is pre-authorized', () => {
      assert.equal(generatePaymentBody(order({ twoPhase: true })).pre_auth, true);
    });

    it('when an order has no wallet hand-off, then nothing is built: it is a programming error', () => {
      assert.throws(() => generatePaymentBody(order({ wallet: undefined })), /wallet hand-off/);
    });

    it('when Flouci registers the payment, then its id and page come back', () => {
      const reply = { success: true, result: { success: true, payment_id: 'pay-1', link: 'https://flouci.example/pay/pay-1', developer_tracking_id: WALLET.trackingId }, code: 0 };
      assert.deepEqual(toRegisterResult(reply), { kind: 'registered', orderId: 'pay-1', redirectUrl: 'https://flouci.example/pay/pay-1' });
    });

    it('when the answer has no top-level success (as WALLET.md writes it), then the result decides', () => {
      const reply = { result: { success: true, payment_id: 'pay-1', link: 'https://flouci.example/pay/pay-1' }, code: 0 };
      assert.deepEqual(toRegisterResult(reply), { kind: 'registered', orderId: 'pay-1', redirectUrl: 'https://flouci.example/pay/pay-1' });
    });

    it('when Flouci says success false, at the top or in its result, then the start is refused with its words', () => {
      assert.deepEqual(toRegisterResult({ success: false, message: 'amount must be a positive integer of millimes', code: 1 }), {
        kind: 'refused',
        message: 'amount must be a positive integer of millimes',
      });
      assert.deepEqual(toRegisterResult({ result: { success: false, message: 'Application disabled' } }), { kind: 'refused', message: 'Application disabled' });
      assert.deepEqual(toRegisterResult({ success: false }), { kind: 'refused', message: 'Flouci refused the payment without saying why.' });
    });

    it('when a registration lacks its id or a web page, or says nothing, then it is unread (the outcome is unknown)', () => {
      assert.equal(toRegisterResult({ success: true, result: { success: true, link: 'https://flouci.example/pay/x' } }), undefined);
      assert.equal(toRegisterResult({ success: true, result: { success: true, payment_id: 'pay-1', link: 'javascript:alert(1)' } }), undefined);
      assert.equal(toRegisterResult({ success: true, result: { success: true, payment_id: 'pay-1' } }), undefined);
      assert.equal(toRegisterResult({ success: true, result: { payment_id: 'pay-1', link: 'https://flouci.example/pay/pay-1' } }), undefined);
      assert.equal(toRegisterResult({}), undefined);
    });
  });

  describe('verify_payment', () => {
    it('when the payment succeeded, then it is paid, for its amount, with no card to show', () => {
      assert.deepEqual(toOrderState(verified({ status: 'SUCCESS', details: { pre_auth: false } })), { kind: 'paid', amount: '12.500', maskedPan: '' });
    });

    it('when a confirmed hold or a refunded payment reads SUCCESS, then it is paid', () => {
      assert.deepEqual(toOrderState(verified({ status: 'SUCCESS', details: { pre_auth: true, hold: 'confirmed' } })), { kind: 'paid', amount: '12.500', maskedPan: '' });
      assert.deepEqual(toOrderState(verified({ status: 'SUCCESS', details: { refund_id: 'ref_1' } })), { kind: 'paid', amount: '12.500', maskedPan: '' });
    });

    it('when a pending payment holds its amount, then it is held', () => {
      assert.deepEqual(toOrderState(verified({ status: 'PENDING', amount: '30500', details: { pre_auth: true, hold: 'held' } })), { kind: 'held', amount: '30.500', maskedPan: '' });
    });

    it('when a payment is pending without a hold, then it has no outcome yet', () => {
      assert.deepEqual(toOrderState(verified({ status: 'PENDING', details: { pre_auth: false } })), { kind: 'open' });
      assert.deepEqual(toOrderState(verified({ status: 'PENDING', details: { pre_auth: true } })), { kind: 'open' });
      assert.deepEqual(toOrderState(verified({ status: 'PENDING' })), { kind: 'open' });
    });

    it('when the payment expired, then it is declined as wallet_expired: the buyer did not complete it in time', () => {
      assert.deepEqual(toOrderState(verified({ status: 'EXPIRED', details: { reason: 'session_expired' } })), {
        kind: 'declined',
        failureCode: 'wallet_expired',
        failureMessage: 'The buyer did not complete the payment in time; nothing was charged.',
      });
    });

    it('when the payment failed, then it is declined as wallet_declined, in words by its reason', () => {
      assert.deepEqual(toOrderState(verified({ status: 'FAILURE', details: { reason: 'insufficient_balance' } })), {
        kind: 'declined',
        failureCode: 'wallet_declined',
        failureMessage: 'The Flouci wallet has insufficient balance; nothing was charged.',
      });
      assert.deepEqual(toOrderState(verified({ status: 'FAILURE', details: { reason: 'canceled_by_buyer' } })), {
        kind: 'declined',
        failureCode: 'wallet_declined',
        failureMessage: "The buyer canceled the payment on Flouci's page; nothing was charged.",
      });
      for (const details of [{ reason: 'something_new' }, {}, undefined]) {
        assert.deepEqual(toOrderState(verified({ status: 'FAILURE', details })), { kind: 'declined', failureCode: 'wallet_declined', failureMessage: 'Flouci declined the payment; nothing was charged.' });
      }
    });

    it('when a hold was canceled, then it is declined and reversed', () => {
      assert.deepEqual(toOrderState(verified({ status: 'FAILURE', details: { pre_auth: true, hold: 'canceled', reason: 'canceled_by_merchant' } })), {
        kind: 'declined',
        failureCode: 'wallet_declined',
        failureMessage: 'The amount held on the Flouci wallet was released; nothing was charged.',
        reversed: true,
      });
    });

    it('when a paid or held payment has no amount, or one that cannot be read, then the answer is unread: an unknown outcome, never paid', () => {
      assert.equal(toOrderState(verified({ status: 'SUCCESS', amount: undefined })), undefined);
      assert.equal(toOrderState(verified({ status: 'PENDING', amount: null, details: { hold: 'held' } })), undefined);
      assert.equal(toOrderState(verified({ status: 'SUCCESS', amount: '12.5' })), undefined);
      assert.equal(toOrderState(verified({ status: 'PENDING', amount: -5, details: { hold: 'held' } })), undefined);
    });

    it('when Flouci says it does not know the payment, then it is not-found; a vaguer refusal is unread', () => {
      assert.deepEqual(toOrderState({ success: false, message: 'Payment not found', code: 1 }), { kind: 'not-found' });
      assert.deepEqual(toOrderState({ success: false, message: 'No such payment' }), { kind: 'not-found' });
      assert.equal(toOrderState({ success: false, message: 'Unknown error, please try again' }), undefined);
      assert.equal(toOrderState({ success: false, message: 'Unknown payment_id' }), undefined);
    });

    it('when Flouci refuses for another reason, or the answer says no status it knows, then it is unread', () => {
      assert.equal(toOrderState({ success: false, message: 'Too many requests', code: 1 }), undefined);
      assert.equal(toOrderState({ success: false }), undefined);
      assert.equal(toOrderState(verified({ status: 'REFUNDED' })), undefined);
      assert.equal(toOrderState(verified({ status: undefined })), undefined);
      assert.equal(toOrderState({ success: true }), undefined);
      assert.equal(toOrderState({ result: { status: 'SUCCESS', amount: 12500 } }), undefined);
      assert.equal(toOrderState({}), undefined);
    });
  });

  describe('confirm, cancel and refund', () => {
    it('when the result says success (SUCCESS, or success for a refund), then the operation is done', () => {
      assert.deepEqual(toOperationResult({ success: true, result: { status: 'SUCCESS' }, code: 0 }), { kind: 'done' });
      assert.deepEqual(toOperationResult({ result: { status: 'SUCCESS' } }), { kind: 'done' });
      assert.deepEqual(toOperationResult({ success: true, result: { refund_id: 'ref_1', payment_id: 'pay-1', amount: '12500', status: 'success', refunded_at: '2025-01-01T00:00:00Z' } }), { kind: 'done' });
    });

    it('when Flouci says success false, then it is refused with its code and words, nothing done', () => {
      assert.deepEqual(toOperationResult({ success: false, message: 'Payment was already refunded', code: 1 }), { kind: 'refused', errorCode: 1, message: 'Payment was already refunded' });
      assert.deepEqual(toOperationResult({ success: false }), { kind: 'refused', errorCode: -1, message: 'Flouci refused the operation without saying why.' });
      assert.deepEqual(toOperationResult({ success: false, message: 'x'.repeat(300), code: 'E1' }), { kind: 'refused', errorCode: -1, message: 'x'.repeat(200) });
    });

    it('when the answer says neither success nor a refusal, then the operation is unconfirmed, never done', () => {
      for (const reply of [{}, { success: true }, { success: true, result: { status: 'PENDING' } }, { result: { status: 1 } }, { result: 'SUCCESS' }]) {
        assert.deepEqual(toOperationResult(reply), { kind: 'unconfirmed', errorCode: -1, message: "Flouci's answer did not say the operation was done." }, JSON.stringify(reply));
      }
    });

    it('when a call got no usable answer, or its keys were refused, then it says which call and why, without more', () => {
      assert.deepEqual(unansweredOperation('refund_payment', 'timed out'), {
        kind: 'unconfirmed',
        errorCode: -1,
        message: 'Flouci gave no usable answer to refund_payment (timed out); the outcome is not known.',
      });
      assert.deepEqual(keysRejected('cancel_payment'), { kind: 'refused', errorCode: -1, message: "Flouci refused the application's keys (HTTP 401) for cancel_payment; nothing was done." });
    });

    it('when the capture is the whole hold, or the payment is not held, then it may go; another amount is refused', () => {
      const held = { kind: 'held', amount: '12.500', maskedPan: '' } as const;
      assert.equal(partialCaptureRefusal('12.500', held), undefined);
      assert.equal(partialCaptureRefusal('12.5', held), undefined);
      assert.equal(partialCaptureRefusal('12.500', { kind: 'paid', amount: '12.500', maskedPan: '' }), undefined);
      assert.equal(partialCaptureRefusal('12.500', { kind: 'not-found' }), undefined);
      assert.deepEqual(partialCaptureRefusal('10.000', held), {
        kind: 'refused',
        errorCode: -1,
        message: 'Flouci confirms a hold whole only: 10.000 TND cannot be captured of the 12.500 TND held; nothing was captured.',
      });
      assert.equal(partialCaptureRefusal('13.000', held)?.kind, 'refused');
      assert.deepEqual(partialCaptureRefusal('12.500', { kind: 'held', maskedPan: '' }), {
        kind: 'refused',
        errorCode: -1,
        message: 'Flouci did not say what it holds for this payment; nothing was captured.',
      });
    });

    it('when a refund is the whole payment with nothing refunded before, then it may go; else it is refused', () => {
      const whole: RefundRequest = { reference: 'pay-1', amount: '12.500', refundedAtMost: '0.000', paymentAmount: '12.500' };
      assert.equal(partialRefundRefusal(whole), undefined);
      assert.equal(partialRefundRefusal({ ...whole, refundedAtMost: '0' }), undefined);
      assert.deepEqual(partialRefundRefusal({ ...whole, amount: '5.000' }), {
        kind: 'refused',
        errorCode: -1,
        message: 'Flouci refunds whole payments only, once: 5.000 TND of a 12.500 TND payment (up to 0.000 TND refunded before) cannot be refunded there.',
      });
      assert.equal(partialRefundRefusal({ ...whole, refundedAtMost: '0.001' })?.kind, 'refused');
      assert.equal(partialRefundRefusal({ ...whole, amount: '12.501' })?.kind, 'refused');
    });
  });

  describe('refusals', () => {
    it('when success is false at the top or in the result, then it is a refusal, with its words cut to 200 characters', () => {
      assert.equal(isRefusal({ success: false }), true);
      assert.equal(isRefusal({ result: { success: false } }), true);
      assert.equal(isRefusal({ success: true, result: { success: true } }), false);
      assert.equal(isRefusal({ success: 'false' }), false);
      assert.equal(flouciMessage({ message: 'Payment not found' }), 'Payment not found');
      assert.equal(flouciMessage({ result: { message: 'Application disabled' } }), 'Application disabled');
      assert.equal(flouciMessage({ message: 'y'.repeat(250) })?.length, 200);
      assert.equal(flouciMessage({ message: 42 }), undefined);
    });
  });
});
