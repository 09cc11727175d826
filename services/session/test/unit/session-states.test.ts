/**
 * The session and attempt state machine without servers (INTERFACE 3.1, D2,
 * D11): the status a caller sees, which sessions can be paid or canceled, where
 * an attempt's outcome takes its session, and what the events of that move say.
 */
import assert from 'node:assert/strict';
import type { CheckoutStep, Envelope, EventData, SessionStatus } from '@gateway/contracts';
import { createLogger } from '@gateway/observability';
import { AppError } from '@gateway/problem';
import type { AttemptOutcome, AttemptResolution } from '../../src/db/attempt.repository.js';
import { outcomeRecorded, refusalToStart } from '../../src/domain/checkout-session.js';
import { assertOpen } from '../../src/domain/open-session.js';
import { applyPaymentStep, failedEvent, resolutionOf, resolvedRow } from '../../src/domain/payment-outcome.js';
import { sessionChanges, type SessionChangeDeps } from '../../src/messaging/session.events.js';
import { StepsUnderway } from '../../src/domain/steps-underway.js';
import { cancelRefusal, captureRefusal, TERMINAL_STATUSES, TRANSITIONS } from '../../src/domain/session-states.js';
import { effectiveStatus, NOT_HELD, toDetail, toEventPayload, toListItem, type SessionRow } from '../../src/domain/session.js';

const NOW = new Date('2026-11-22T10:00:00.000Z');
const LATER = new Date('2026-11-23T10:00:00.000Z');

function session(overrides: Partial<SessionRow> = {}): SessionRow {
  return {
    id: 'ps_00000000000000000001',
    merchant_id: 'mer_00000000000000000001',
    livemode: false,
    merchant_reference: 'order-1',
    order_number: 'ABC-7K2M9Q',
    order_id: '',
    amount: '33.333',
    original_amount: '10.00',
    original_currency: 'EUR',
    rate: '3.333333',
    description: 'Two books',
    items: [],
    metadata: {},
    buyer_first_name: 'Amira',
    buyer_last_name: 'Ben Salah',
    buyer_email: 'amira@example.tn',
    buyer_phone: '',
    return_url: '',
    cancel_url: '',
    webhook_url: '',
    max_attempts: 3,
    status: 'CREATED',
    expires_at: LATER,
    completed_at: null,
    created_at: new Date('2026-11-22T09:00:00.000Z'),
    checkout_link_id: 'cl_1',
    checkout_token: 'token-1',
    checkout_expires_at: new Date('2026-11-22T10:30:00.000Z'),
    amount_refunded: '0.000',
    merchant_name: 'Librairie',
    attempts_count: 0,
    last_failure_code: '',
    last_failure_message: '',
    locale: 'auto',
    capture_method: 'automatic',
    payment_link: null,
    customer_id: null,
    save_card: 'off',
    payment_method_id: null,
    paid_with: '',
    ...NOT_HELD,
    ...overrides,
  };
}

function approval(at = NOW): AttemptOutcome {
  return {
    attemptId: 'pa_00000000000000000001',
    status: 'SUCCEEDED',
    cardBrand: 'visa',
    cardLastFour: '4242',
    cardCountry: 'TN',
    failureCode: '',
    failureMessage: '',
    feeAmount: '1.133',
    netAmount: '32.200',
    at,
  };
}

function decline(code = 'card_declined', at = NOW): AttemptOutcome {
  return { ...approval(at), status: 'FAILED', cardCountry: '', failureCode: code, failureMessage: `declined: ${code}`, feeAmount: null, netAmount: null };
}

/** The problem code `act` throws; fails the test when it throws anything else or nothing. */
function problemOf(act: () => unknown): string {
  try {
    act();
  } catch (err) {
    assert.ok(err instanceof AppError, `expected an AppError, got ${String(err)}`);
    return err.code;
  }
  assert.fail('expected a problem, nothing was thrown');
}

const ALL: readonly SessionStatus[] = ['CREATED', 'PENDING', 'PROCESSING', 'AUTHORIZED', 'SUCCEEDED', 'FAILED', 'CANCELED', 'EXPIRED'];

describe('Session status as a caller sees it', () => {
  it('when a session is before its expiry, then every status reads as stored', () => {
    assert.deepEqual(
      ALL.map((status) => effectiveStatus(session({ status }), NOW)),
      ALL,
    );
  });

  it('when an open session reaches its expiry, then it reads EXPIRED before the sweep records it, and not a millisecond earlier', () => {
    for (const status of ['CREATED', 'PENDING'] as const) {
      const row = session({ status, expires_at: NOW });
      assert.equal(effectiveStatus(row, new Date(NOW.getTime() - 1)), status);
      assert.equal(effectiveStatus(row, NOW), 'EXPIRED');
    }
  });

  it('when a session past its expiry is PROCESSING or terminal, then its status stands: a payment under way resolves first', () => {
    for (const status of ['PROCESSING', 'SUCCEEDED', 'FAILED', 'CANCELED', 'EXPIRED'] as const) {
      assert.equal(effectiveStatus(session({ status, expires_at: NOW }), LATER), status);
    }
  });

  it('when a session is shown past its expiry, then the detail and the list say EXPIRED and the detail has no checkout_url', () => {
    const row = session({ expires_at: NOW });
    assert.equal(toListItem(row, LATER).status, 'EXPIRED');
    const detail = toDetail(row, LATER, 'https://pay.example.tn');
    assert.equal(detail.status, 'EXPIRED');
    assert.equal('checkout_url' in detail, false);
  });

  it('when any other session is shown, then the detail carries the newest link, even a paid one (D2)', () => {
    for (const status of ['CREATED', 'PENDING', 'PROCESSING', 'SUCCEEDED', 'FAILED', 'CANCELED'] as const) {
      assert.equal(toDetail(session({ status }), NOW, 'https://pay.example.tn').checkout_url, 'https://pay.example.tn/checkout/token-1', status);
    }
  });

  it('when an attempt has no fee or net yet, then the detail shows empty strings, not nulls (D2)', () => {
    const row = session({
      attempts: [{ id: 'pa_1', attempt_number: 1, status: 'PROCESSING', payment_method_type: 'card', card_brand: '', card_last_four: '', card_country: '', failure_code: '', failure_message: '', fee_amount: null, net_amount: null, created_at: NOW.toISOString() }],
    });
    const [attempt] = toDetail(row, NOW, 'https://pay.example.tn').attempts;
    assert.equal(attempt?.fee_amount, '');
    assert.equal(attempt?.net_amount, '');
  });
});

describe('Which sessions can be canceled or paid', () => {
  it('when a session is CREATED or PENDING before its expiry, then it is open', () => {
    assert.doesNotThrow(() => assertOpen(session({ status: 'CREATED' }), NOW));
    assert.doesNotThrow(() => assertOpen(session({ status: 'PENDING' }), NOW));
  });

  it('when an attempt is PROCESSING, then a cancel is 409 conflict: the payment resolves first', () => {
    assert.equal(problemOf(() => assertOpen(session({ status: 'PROCESSING' }), NOW)), 'conflict');
  });

  it('when a session is terminal, or open but past its expiry, then it is 409 session-terminal', () => {
    for (const status of ['SUCCEEDED', 'FAILED', 'CANCELED', 'EXPIRED'] as const) {
      assert.equal(problemOf(() => assertOpen(session({ status }), NOW)), 'session-terminal', status);
    }
    assert.equal(problemOf(() => assertOpen(session({ status: 'PENDING', expires_at: NOW }), NOW)), 'session-terminal');
  });

  it('when no attempt could start, then one already running is 409 conflict and anything else names the status the buyer is in', () => {
    assert.equal(refusalToStart(session({ status: 'PROCESSING' }), NOW).code, 'conflict');
    const expired = refusalToStart(session({ status: 'CREATED', expires_at: NOW }), NOW);
    assert.equal(expired.code, 'session-terminal');
    assert.match(expired.detail, /EXPIRED/);
    assert.match(refusalToStart(session({ status: 'SUCCEEDED' }), NOW).detail, /SUCCEEDED/);
  });
});

describe("Where an attempt's outcome takes its session", () => {
  it('when the attempt is approved, then the session SUCCEEDS, completed at the payment, keeping the earlier failure as its last', () => {
    const row = session({ status: 'PROCESSING', attempts_count: 2, last_failure_code: 'card_declined', last_failure_message: 'declined' });
    const at = new Date('2026-11-22T10:05:00.000Z');
    assert.deepEqual(resolutionOf(row, approval(at)), {
      status: 'SUCCEEDED',
      completedAt: at,
      authorizedAt: null,
      holdExpiresAt: null,
      lastFailureCode: 'card_declined',
      lastFailureMessage: 'declined',
      attemptsCount: 2,
    });
  });

  it('when the attempt is declined with attempts left, then the session is PENDING, not completed, with the decline as its last failure', () => {
    const resolution = resolutionOf(session({ status: 'PROCESSING', attempts_count: 2, max_attempts: 3 }), decline('insufficient_funds'));
    assert.deepEqual(resolution, {
      status: 'PENDING',
      completedAt: null,
      authorizedAt: null,
      holdExpiresAt: null,
      lastFailureCode: 'insufficient_funds',
      lastFailureMessage: 'declined: insufficient_funds',
      attemptsCount: 2,
    });
  });

  it('when the last allowed attempt is declined, then the session FAILS, completed at the decline', () => {
    const resolution = resolutionOf(session({ status: 'PROCESSING', attempts_count: 3, max_attempts: 3 }), decline('expired_card'));
    assert.equal(resolution.status, 'FAILED');
    assert.equal(resolution.completedAt, NOW);
    assert.equal(resolution.lastFailureCode, 'expired_card');
  });

  it('when a single-attempt session is declined, then it fails at once', () => {
    assert.equal(resolutionOf(session({ status: 'PROCESSING', attempts_count: 1, max_attempts: 1 }), decline()).status, 'FAILED');
  });

  it('when a resolution is applied, then the row takes its status, completion and last failure and keeps everything else', () => {
    const row = session({ status: 'PROCESSING', attempts_count: 1 });
    const next = resolvedRow(row, resolutionOf(row, decline('incorrect_cvc')));
    assert.deepEqual(next, { ...row, status: 'PENDING', completed_at: null, last_failure_code: 'incorrect_cvc', last_failure_message: 'declined: incorrect_cvc' });
  });
});

describe('The events of a resolved attempt', () => {
  const approved: EventData<'payment.approved'> = {
    attempt_id: 'pa_00000000000000000001',
    session_id: 'ps_00000000000000000001',
    merchant_id: 'mer_00000000000000000001',
    livemode: false,
    card_brand: 'visa',
    card_last_four: '4242',
    amount: '33.333',
    card_country: 'TN',
    fee_amount: '1.133',
    net_amount: '32.200',
    paid_at: '2026-11-22T10:05:00.000Z',
  };

  it('when a decline leaves attempts and time, then session.failed says can_retry with the last failure and the attempts made', () => {
    const row = session({ status: 'PROCESSING', attempts_count: 1, max_attempts: 3 });
    const event = failedEvent(resolvedRow(row, resolutionOf(row, decline('card_declined'))), NOW, 'corr-1');
    assert.equal(event.type, 'session.failed');
    assert.equal(event.correlation_id, 'corr-1');
    assert.equal(event.data.session.status, 'PENDING');
    assert.equal(event.data.session.can_retry, true);
    assert.equal(event.data.session.last_failure_code, 'card_declined');
    assert.equal(event.data.session.attempts_count, 1);
  });

  it('when the last attempt is declined, then session.failed says FAILED and can_retry false', () => {
    const row = session({ status: 'PROCESSING', attempts_count: 3, max_attempts: 3 });
    const event = failedEvent(resolvedRow(row, resolutionOf(row, decline())), NOW, 'corr-1');
    assert.equal(event.data.session.status, 'FAILED');
    assert.equal(event.data.session.can_retry, false);
  });

  it('when a decline arrives after the session lifetime ended, then can_retry is false though attempts remain', () => {
    const row = session({ status: 'PROCESSING', attempts_count: 1, max_attempts: 3, expires_at: NOW });
    const late = new Date(NOW.getTime() + 1000);
    const event = failedEvent(resolvedRow(row, resolutionOf(row, decline('card_declined', late))), late, 'corr-1');
    assert.equal(event.data.session.can_retry, false);
  });

  it('when an attempt is approved, then session.succeeded carries the payment with its card, fee and net, and when it was paid', async () => {
    const row = session({ status: 'PROCESSING', attempts_count: 1, webhook_url: 'https://shop.example.tn/hooks' });
    const announced: Envelope[] = [];
    // The store applies the move (the statement's own checks are the component tests'); the event it is given is what is announced.
    const attempts = {
      resolve: async (_outcome: AttemptOutcome, _id: string, _resolution: AttemptResolution, event: Envelope) => (announced.push(event), { resolved: true, open: true }),
    };
    const { outcomes } = sessionChanges({ attempts, log: createLogger({ service: 'test', level: 'silent' }), authorizationTtlSeconds: 604_800 } as unknown as SessionChangeDeps);
    const moved = await applyPaymentStep(outcomes, 'reply', { outcome: 'approved', approved }, { correlationId: 'corr-2', at: NOW, session: row });
    assert.equal(moved?.status, 'SUCCEEDED');
    const [event] = announced as Array<Envelope<EventData<'session.succeeded'>>>;
    assert.equal(event?.type, 'session.succeeded');
    assert.equal(event?.correlation_id, 'corr-2');
    assert.equal(event?.data.webhook_url, 'https://shop.example.tn/hooks');
    assert.equal(event?.data.session.status, 'SUCCEEDED');
    assert.equal(event?.data.session.paid_at, '2026-11-22T10:05:00.000Z');
    assert.deepEqual(event?.data.session.payment, { method: 'card', card_brand: 'visa', card_last_four: '4242', card_country: 'TN', fee_amount: '1.133', net_amount: '32.200' });
  });

  describe('when the adapter announces an outcome that a payment step of this process is recording from its answer', () => {
    const log = createLogger({ service: 'test', level: 'silent' });
    const eventContext = { correlationId: 'corr-4', at: NOW, event: { id: 'evt_1', type: 'payment.approved', version: 1, occurred_at: NOW.toISOString(), correlation_id: 'corr-4', data: approved } };

    /** The changes over a store that counts its reads and records every move as applied. */
    function changesOver() {
      const asked = { reads: 0, resolves: 0 };
      const attempts = {
        findSessionWithOpenAttempt: async () => ((asked.reads += 1), session({ status: 'PROCESSING', attempts_count: 1 })),
        resolve: async () => ((asked.resolves += 1), { resolved: true, open: true }),
      };
      const underway = new StepsUnderway();
      const { outcomes } = sessionChanges({ attempts, log, authorizationTtlSeconds: 604_800, underway } as unknown as SessionChangeDeps);
      return { outcomes, underway, asked };
    }

    it('then the event waits for the step, and once the step recorded it, changes nothing and reads nothing', async () => {
      const { outcomes, underway, asked } = changesOver();
      let answer: (recorded: boolean) => void = () => undefined;
      const step = underway.run(approved.attempt_id, () => new Promise<boolean>((resolve) => (answer = resolve)), (recorded) => recorded);
      const fromEvent = outcomes.apply({ approved }, eventContext);
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(asked, { reads: 0, resolves: 0 }, 'the event waited');
      answer(true);
      await step;
      assert.equal(await fromEvent, undefined);
      assert.deepEqual(asked, { reads: 0, resolves: 0 });
    });

    it('then, when the step ended without recording it (no answer in time), the event records it as ever; with no step under way here, at once', async () => {
      const { outcomes, underway, asked } = changesOver();
      const step = underway.run(approved.attempt_id, async () => false, (recorded) => recorded);
      const fromEvent = outcomes.apply({ approved }, eventContext);
      await step;
      assert.equal((await fromEvent)?.status, 'SUCCEEDED');
      assert.equal((await outcomes.apply({ approved }, eventContext))?.status, 'SUCCEEDED');
      assert.deepEqual(asked, { reads: 2, resolves: 2 });
    });

    it('then, when the answer does not come within the wait (the adapter stopped before answering), the event records the outcome without waiting longer', async () => {
      const log2 = createLogger({ service: 'test', level: 'silent' });
      const attempts = {
        findSessionWithOpenAttempt: async () => session({ status: 'PROCESSING', attempts_count: 1 }),
        resolve: async () => ({ resolved: true, open: true }),
      };
      const underway = new StepsUnderway(50);
      const { outcomes } = sessionChanges({ attempts, log: log2, authorizationTtlSeconds: 604_800, underway } as unknown as SessionChangeDeps);
      void underway.run(approved.attempt_id, () => new Promise<boolean>(() => undefined), (recorded) => recorded);
      const started = performance.now();
      assert.equal((await outcomes.apply({ approved }, eventContext))?.status, 'SUCCEEDED');
      assert.ok(performance.now() - started < 1_000, 'waited past its wait');
    });

    it('then a step counts as having recorded the outcome only when its answer carries the session: not a 3-D Secure form, not a pending answer', () => {
      const view = { session_id: 'ps_1' } as CheckoutStep['session'];
      assert.equal(outcomeRecorded({ outcome: 'approved', approved, session: view } as CheckoutStep), true);
      assert.equal(outcomeRecorded({ outcome: 'pending' }), false);
      assert.equal(outcomeRecorded({ outcome: 'challenge', challenge: { url: 'https://acs.example/x', fields: {} } } as CheckoutStep), false);
    });

    it("then the step's own path never waits for itself", async () => {
      const { outcomes, underway } = changesOver();
      const moved = await underway.run(approved.attempt_id, () => applyPaymentStep(outcomes, 'reply', { outcome: 'approved', approved }, { correlationId: 'corr-5', at: NOW }), (row) => row !== undefined);
      assert.equal(moved?.status, 'SUCCEEDED');
    });
  });

  it('when a session is announced, then its payload is in TND with the original request, whatever it was asked in', () => {
    const payload = toEventPayload(session());
    assert.equal(payload.currency, 'TND');
    assert.equal(payload.amount, '33.333');
    assert.deepEqual(payload.original, { amount: '10.00', currency: 'EUR', rate: '3.333333' });
    assert.deepEqual(payload.buyer, { first_name: 'Amira', last_name: 'Ben Salah', email: 'amira@example.tn', phone: '' });
  });
});

describe('Refunds counted in amount_refunded (D16)', () => {
  /** What a refund event asks the store to count for a refund in `status`. */
  async function counted(status: 'succeeded' | 'pending' | 'failed' | undefined) {
    const asked: Array<{ refundId: string; amount: string; outcome: string }> = [];
    const refundRecords = { record: async (refund: { refundId: string; amount: string; outcome: string }) => (asked.push(refund), '0.000') };
    const refund = status && { refund_id: 're_1', amount: '5.000', automated_refund: status === 'succeeded', reason: 'damaged', metadata: {}, status };
    const data = { merchant_id: 'mer_1', webhook_url: '', session: { ...toEventPayload(session({ status: 'SUCCEEDED' })), ...(refund && { refund }) } };
    const change = sessionChanges({ refundRecords } as unknown as SessionChangeDeps).refunds;
    const record = change.fromEvent(data as EventData<'refund.created'>, { correlationId: 'corr-3', at: NOW });
    if (record) await change.apply(record, { correlationId: 'corr-3', at: NOW });
    return asked.map(({ refundId, amount, outcome }) => `${refundId}:${amount}:${outcome}`);
  }

  it('when a refund event says succeeded or pending, then the refund is held in the total; failed, it is taken out', async () => {
    assert.deepEqual(await counted('succeeded'), ['re_1:5.000:held']);
    assert.deepEqual(await counted('pending'), ['re_1:5.000:held']);
    assert.deepEqual(await counted('failed'), ['re_1:5.000:failed']);
  });

  it('when an event carries no refund, then nothing is counted', async () => {
    assert.deepEqual(await counted(undefined), []);
  });
});

describe('Authorize now, capture later (D22)', () => {
  const held = (overrides: Partial<SessionRow> = {}) =>
    session({ status: 'AUTHORIZED', capture_method: 'manual', amount_authorized: '33.333', authorized_at: NOW, attempts_count: 1, ...overrides });

  it('when a session is AUTHORIZED with no capture under way, then it alone may be captured; terminal is session-terminal, a capture under way conflict, anything else invalid-state', () => {
    const refusals = ALL.map((status) => [status, captureRefusal({ status, capturing: false })?.code ?? 'allowed']);
    assert.deepEqual(refusals, [
      ['CREATED', 'invalid-state'],
      ['PENDING', 'invalid-state'],
      ['PROCESSING', 'invalid-state'],
      ['AUTHORIZED', 'allowed'],
      ['SUCCEEDED', 'session-terminal'],
      ['FAILED', 'session-terminal'],
      ['CANCELED', 'session-terminal'],
      ['EXPIRED', 'session-terminal'],
    ]);
    assert.equal(captureRefusal({ status: 'AUTHORIZED', capturing: true })?.code, 'conflict');
  });

  it('when the merchant cancels, then CREATED, PENDING and AUTHORIZED may be canceled; a payment or a capture under way is conflict; terminal is session-terminal', () => {
    const refusals = ALL.map((status) => [status, cancelRefusal({ status, capturing: false })?.code ?? 'allowed']);
    assert.deepEqual(refusals, [
      ['CREATED', 'allowed'],
      ['PENDING', 'allowed'],
      ['PROCESSING', 'conflict'],
      ['AUTHORIZED', 'allowed'],
      ['SUCCEEDED', 'session-terminal'],
      ['FAILED', 'session-terminal'],
      ['CANCELED', 'session-terminal'],
      ['EXPIRED', 'session-terminal'],
    ]);
    assert.equal(cancelRefusal({ status: 'AUTHORIZED', capturing: true })?.code, 'conflict');
  });

  it('when a buyer or a new link meets an AUTHORIZED session, then it is invalid-state: the held payment is the merchant\'s to capture or void', () => {
    assert.equal(problemOf(() => assertOpen(held(), NOW)), 'invalid-state');
  });

  it('when an approved attempt is held, then the session is AUTHORIZED, not completed, with amount_authorized and when it was held', () => {
    const row = session({ status: 'PROCESSING', attempts_count: 1, capture_method: 'manual' });
    const later = new Date(NOW.getTime() + 5_000);
    const lapse = new Date(later.getTime() + 604_800_000);
    const resolution = resolutionOf(row, { ...approval(later), held: true, holdExpiresAt: lapse, feeAmount: null, netAmount: null });
    assert.deepEqual([resolution.status, resolution.completedAt, resolution.authorizedAt, resolution.holdExpiresAt], ['AUTHORIZED', null, later, lapse]);
    const next = resolvedRow(row, resolution);
    assert.deepEqual([next.status, next.amount_authorized, next.authorized_at, next.hold_expires_at, next.completed_at], ['AUTHORIZED', '33.333', later, lapse, null]);
  });

  it('when a hold reaches its lapse with no capture under way, then it reads EXPIRED before the sweep records it (no capture, no cancel); a capture under way keeps it AUTHORIZED', () => {
    const lapsing = held({ hold_expires_at: NOW });
    assert.equal(effectiveStatus(lapsing, new Date(NOW.getTime() - 1)), 'AUTHORIZED');
    assert.equal(effectiveStatus(lapsing, NOW), 'EXPIRED');
    assert.equal(captureRefusal({ status: effectiveStatus(lapsing, NOW), capturing: false })?.code, 'session-terminal');
    assert.equal(effectiveStatus({ ...lapsing, capturing_amount: '1.000' }, NOW), 'AUTHORIZED');
  });

  it('when a held session is announced, then the payload carries its capture method, amount_authorized and authorized_at, a payment without fee or net, and no paid_at', () => {
    const payload = toEventPayload(held(), { payment_method_type: 'card', card_brand: 'visa', card_last_four: '4242', card_country: '', fee_amount: null, net_amount: null });
    assert.equal(payload.capture_method, 'manual');
    assert.equal(payload.amount_authorized, '33.333');
    assert.equal(payload.authorized_at, NOW.toISOString());
    assert.equal(payload.paid_at, undefined);
    assert.deepEqual(payload.payment, { method: 'card', card_brand: 'visa', card_last_four: '4242', card_country: '' });
  });

  it('when a session is shown, then amount_authorized and amount_captured are the held and captured amounts of a manual one, the amount of a paid automatic one, and empty before', () => {
    const shown = (row: SessionRow) => {
      const detail = toDetail(row, NOW, 'https://pay.example');
      return [detail.capture_method, detail.amount_authorized, detail.amount_captured];
    };
    assert.deepEqual(shown(session()), ['automatic', '', '']);
    assert.deepEqual(shown(session({ status: 'SUCCEEDED', completed_at: NOW })), ['automatic', '33.333', '33.333']);
    assert.deepEqual(shown(held()), ['manual', '33.333', '']);
    assert.deepEqual(shown(held({ status: 'SUCCEEDED', amount_captured: '10.000', completed_at: NOW })), ['manual', '33.333', '10.000']);
  });

  it('when the transitions are listed, then every status but the terminal ones can be left, AUTHORIZED is not terminal, and no transition leaves a terminal status', () => {
    for (const status of ALL.filter((s) => !TERMINAL_STATUSES.includes(s))) {
      assert.ok(TRANSITIONS.some((t) => t.from === status), `${status} can be left`);
    }
    assert.equal(TERMINAL_STATUSES.includes('AUTHORIZED'), false);
    assert.deepEqual(TRANSITIONS.filter((t) => t.from !== '(new)' && TERMINAL_STATUSES.includes(t.from)), []);
  });
});
