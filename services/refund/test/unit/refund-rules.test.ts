/**
 * Refund rules without servers (D10, D16): what a refund may take from its
 * payment, which requests are refused before anything is read, which sessions
 * can be refunded, and how a refund's state reads.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { ApiContext, SessionDetail } from '@gateway/contracts';
import { addTnd, compareTnd } from '@gateway/money';
import { createLogger } from '@gateway/observability';
import { AppError } from '@gateway/problem';
import type { RefundRow } from '../../src/db/refund.repository.js';
import { createRefund } from '../../src/domain/create-refund.js';
import type { RefundDeps } from '../../src/domain/deps.js';
import { resolveManualRefund } from '../../src/domain/manual-refunds.js';
import { reservationOf } from '../../src/domain/refund-balance.js';
import { refundOf, resultOf, statusOf } from '../../src/domain/refund-view.js';

describe('What a refund may take from its payment', () => {
  it('when a FULL refund is the first, then it reserves the whole captured amount, a reversal', () => {
    assert.deepEqual(reservationOf({ captured: '120.500', held: '0.000' }, undefined), { kind: 'reserved', amount: '120.500', whole: true });
  });

  it('when a PARTIAL refund of the whole amount is the first, then it is a whole refund too', () => {
    assert.deepEqual(reservationOf({ captured: '120.500', held: '0' }, '120.500'), { kind: 'reserved', amount: '120.500', whole: true });
  });

  it('when a PARTIAL refund takes less than was captured, then exactly that is reserved and it is not whole', () => {
    assert.deepEqual(reservationOf({ captured: '120.500', held: '0.000' }, '20.000'), { kind: 'reserved', amount: '20.000', whole: false });
  });

  it('when a FULL refund follows partial ones, then it takes exactly what is left, not a whole refund', () => {
    assert.deepEqual(reservationOf({ captured: '120.500', held: '20.001' }, undefined), { kind: 'reserved', amount: '100.499', whole: false });
  });

  it('when a PARTIAL refund asks exactly what is left, then it is reserved; one millime more is amount_too_large with what is left', () => {
    assert.deepEqual(reservationOf({ captured: '10.000', held: '7.500' }, '2.500'), { kind: 'reserved', amount: '2.500', whole: false });
    assert.deepEqual(reservationOf({ captured: '10.000', held: '7.500' }, '2.501'), { kind: 'too-large', remaining: '2.500' });
  });

  it('when nothing is left, then FULL and PARTIAL alike are nothing-left (invalid-state), not amount_too_large', () => {
    assert.deepEqual(reservationOf({ captured: '10.000', held: '10.000' }, undefined), { kind: 'nothing-left' });
    assert.deepEqual(reservationOf({ captured: '10.000', held: '10.000' }, '0.001'), { kind: 'nothing-left' });
  });

  it('when amounts are large, then the arithmetic is exact to the millime', () => {
    assert.deepEqual(reservationOf({ captured: '999999.999', held: '0.001' }, undefined), { kind: 'reserved', amount: '999999.998', whole: false });
    assert.deepEqual(reservationOf({ captured: '0.300', held: '0.100' }, '0.200'), { kind: 'reserved', amount: '0.200', whole: false });
  });

  it('when a caller skipped the request check, then a zero or negative amount is refused rather than held', () => {
    assert.throws(() => reservationOf({ captured: '10.000', held: '0' }, '0.000'), RangeError);
    assert.throws(() => reservationOf({ captured: '10.000', held: '0' }, '-1.000'), RangeError);
  });

  it('when any sequence of refunds is asked of one payment, then together they never pass what was captured, and a last FULL takes the rest', () => {
    const millimes = (n: number) => (n / 1000).toFixed(3);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 999_999_999 }), fc.array(fc.integer({ min: 1, max: 999_999_999 }), { maxLength: 12 }), (captured, asks) => {
        let held = '0.000';
        for (const ask of asks) {
          const reservation = reservationOf({ captured: millimes(captured), held }, millimes(ask));
          if (reservation.kind === 'reserved') held = addTnd(held, reservation.amount);
          assert.ok(compareTnd(held, millimes(captured)) <= 0);
        }
        const last = reservationOf({ captured: millimes(captured), held }, undefined);
        if (compareTnd(held, millimes(captured)) === 0) {
          assert.deepEqual(last, { kind: 'nothing-left' });
        } else {
          assert.equal(last.kind, 'reserved');
          assert.equal(addTnd(held, last.amount), millimes(captured));
        }
      }),
      { numRuns: 300 },
    );
  });
});

/**
 * Dependencies that fail the test when a refund gets as far as storage or the
 * acquirer; the session service answers `session` (however the use case asks
 * for it), and `refunds` may be given.
 */
function untouched(session?: Partial<SessionDetail>, refunds?: object): RefundDeps {
  const never = (what: string) => () => assert.fail(`reached ${what}`);
  const viewed = async () => session ?? never('the session service')();
  const given: Record<string, unknown> = {
    refunds: refunds ?? new Proxy({}, { get: (_target, name) => never(`refunds.${String(name)}`) }),
    getSession: viewed,
    getSessionForEvent: async () => ({ session: await viewed(), event: {} }),
    log: createLogger({ service: 'test', level: 'silent' }),
    staleSeconds: 60,
  };
  return new Proxy(given, { get: (target, name) => (typeof name === 'string' && name in target ? target[name] : never(String(name))) }) as unknown as RefundDeps;
}

const context: ApiContext = { merchant_id: 'mer_00000000000000000001', livemode: false, order_prefix: 'ABC', merchant_name: 'Shop', request_id: 'req-1' };

/** The problem a refund request is refused with, as `code` and `field:code` entries. */
async function refusal(body: unknown, deps = untouched()): Promise<{ code: string; fields: string[] }> {
  try {
    await createRefund(deps, context, 'ps_00000000000000000001', body, 'cmd-1');
  } catch (err) {
    assert.ok(err instanceof AppError, String(err));
    return { code: err.code, fields: err.errors.map((e) => `${e.field}:${e.code}`) };
  }
  assert.fail('the refund was not refused');
}

describe('Refund requests refused before anything is read', () => {
  it('when the body is not a JSON object, then the error is on body', async () => {
    for (const body of [null, [], 'refund', 7]) assert.deepEqual(await refusal(body), { code: 'validation-error', fields: ['body:invalid'] });
  });

  it('when a PARTIAL refund has no amount, then amount is required', async () => {
    assert.deepEqual(await refusal({ reason: 'damaged', refund_type: 'PARTIAL' }), { code: 'validation-error', fields: ['amount:required'] });
  });

  it('when a PARTIAL amount is not at TND precision, not positive, or not a decimal string, then it is refused as amounts are (D5)', async () => {
    const amountError = async (amount: unknown) => (await refusal({ reason: 'damaged', refund_type: 'PARTIAL', amount })).fields;
    assert.deepEqual(await amountError('10'), ['amount:invalid_precision']);
    assert.deepEqual(await amountError('10.50'), ['amount:invalid_precision']);
    assert.deepEqual(await amountError('0.000'), ['amount:invalid_value']);
    assert.deepEqual(await amountError('-1.000'), ['amount:invalid_value']);
    assert.deepEqual(await amountError('1,000.000'), ['amount:invalid_format']);
    assert.deepEqual(await amountError(10), ['amount:invalid_type']);
    assert.deepEqual(await amountError('1000000.000'), ['amount:amount_too_large']);
  });

  it('when a FULL refund names an amount, then the amount is refused: FULL refunds what is left', async () => {
    assert.deepEqual((await refusal({ reason: 'damaged', amount: '1.000' })).fields, ['amount:invalid']);
    assert.deepEqual((await refusal({ reason: 'damaged', refund_type: 'FULL', amount: '1.000' })).fields, ['amount:invalid']);
  });

  it('when several fields are wrong, then all are reported at once', async () => {
    const { fields } = await refusal({ reason: '', refund_type: 'PARTIAL', amount: '1.5', colour: 'red' });
    assert.deepEqual([...fields].sort(), ['amount:invalid_precision', 'colour:invalid', 'reason:invalid']);
  });
});

describe('Which sessions can be refunded', () => {
  const valid = { reason: 'damaged' };

  it('when the session is not SUCCEEDED, then the refund is invalid-state and nothing is stored', async () => {
    for (const status of ['CREATED', 'PENDING', 'PROCESSING', 'FAILED', 'CANCELED', 'EXPIRED'] as const) {
      assert.equal((await refusal(valid, untouched({ status, attempts: [] }))).code, 'invalid-state', status);
    }
  });

  it('when a SUCCEEDED session has no succeeded attempt, then the refund is refused before anything is stored', async () => {
    const failedOnly = { status: 'SUCCEEDED' as const, attempts: [{ id: 'pa_1', attempt_number: 1, status: 'FAILED' as const, payment_method_type: 'card' as const, card_brand: '', card_last_four: '', failure_code: 'card_declined', fee_amount: '', net_amount: '', created_at: '' }] };
    assert.equal((await refusal(valid, untouched(failedOnly))).code, 'no-payment');
  });
});

describe('How a refund reads', () => {
  function refund(overrides: Partial<RefundRow> = {}): RefundRow {
    return {
      id: 're_00000000000000000001',
      session_id: 'ps_00000000000000000001',
      attempt_id: 'pa_00000000000000000001',
      merchant_id: 'mer_00000000000000000001',
      livemode: false,
      amount: '12.500',
      reason: 'damaged',
      metadata: { ticket: '42' },
      status: 'SUCCEEDED',
      automated: true,
      epg_error_message: '',
      created_at: new Date('2026-11-22T10:00:00.000Z'),
      resolved_at: new Date('2026-11-22T10:00:01.000Z'),
      ...overrides,
    };
  }

  it('when a refund is under way or waits for an operator, then it reads pending; confirmed succeeded; refused failed', () => {
    assert.equal(statusOf({ status: 'PENDING' }), 'pending');
    assert.equal(statusOf({ status: 'MANUAL' }), 'pending');
    assert.equal(statusOf({ status: 'SUCCEEDED' }), 'succeeded');
    assert.equal(statusOf({ status: 'FAILED' }), 'failed');
  });

  it('when a refund waits for an operator, then it shows the acquirer message; once resolved it no longer does', () => {
    const waiting = refund({ status: 'MANUAL', automated: false, epg_error_message: 'no answer', resolved_at: null });
    assert.equal(refundOf(waiting).epg_error_message, 'no answer');
    assert.equal(refundOf(waiting).resolved_at, null);
    assert.equal('epg_error_message' in refundOf({ ...waiting, status: 'SUCCEEDED' }), false);
    assert.equal('epg_error_message' in refundOf(refund()), false);
    assert.equal(refundOf(refund()).currency, 'TND');
  });

  it('when the refund answer is replayed, then automated_refund and the acquirer message follow whether the acquirer confirmed it', () => {
    assert.deepEqual(resultOf(refund()), { refund_id: 're_00000000000000000001', refunded_amount: '12.500', automated_refund: true, metadata: { ticket: '42' } });
    assert.deepEqual(resultOf(refund({ status: 'MANUAL', automated: false, epg_error_message: 'no answer' })), {
      refund_id: 're_00000000000000000001',
      refunded_amount: '12.500',
      automated_refund: false,
      epg_error_message: 'no answer',
      metadata: { ticket: '42' },
    });
  });
});

describe('Which refunds an operator can resolve', () => {
  /** The problem resolving a refund stored as `stored` is refused with; nothing past the read may be touched. */
  async function resolveRefusal(stored: Partial<RefundRow> | undefined): Promise<string> {
    const deps = untouched(undefined, {
      find: async () => stored && { id: 're_1', session_id: 'ps_1', merchant_id: 'mer_1', livemode: false, ...stored },
    });
    try {
      await resolveManualRefund(deps, { refund_id: 're_1', as: 'succeeded' }, 'corr-1');
    } catch (err) {
      assert.ok(err instanceof AppError, String(err));
      return err.code;
    }
    assert.fail('the resolution was not refused');
  }

  it('when the refund is already SUCCEEDED or FAILED, then it is 409 conflict and nothing is read or changed further', async () => {
    assert.equal(await resolveRefusal({ status: 'SUCCEEDED' }), 'conflict');
    assert.equal(await resolveRefusal({ status: 'FAILED' }), 'conflict');
  });

  it('when there is no such refund, then it is not-found', async () => {
    assert.equal(await resolveRefusal(undefined), 'not-found');
  });
});
