/**
 * The slots of a limited payment link (D19) without servers: when a slot is
 * given back, handed back, kept, and looked at with the session service.
 * The repository is a fake that records what was asked of it.
 */
import assert from 'node:assert/strict';
import type { CheckoutView } from '@gateway/contracts';
import { createLogger } from '@gateway/observability';
import type { HeldSlot, PaymentLinkRepository, SlotClaim } from '../../src/db/payment-link.repository.js';
import type { CheckoutLinkRef } from '../../src/domain/checkout-link-verifier.js';
import { PaymentLinkSlots } from '../../src/domain/payment-link-slots.js';

const NOW = new Date('2026-11-27T10:00:00.000Z');
const ref = { session_id: 'ps_1', link_id: 'cl_1' };

function slotsWith(repo: Partial<PaymentLinkRepository>, views: Record<string, CheckoutView['status'] | Error> = {}) {
  const calls: string[] = [];
  const record =
    (name: string, answer: unknown = undefined) =>
    async (...args: unknown[]) => {
      calls.push(`${name} ${args.filter((a) => typeof a === 'string').join(' ')}`.trim());
      return answer;
    };
  const paymentLinks = {
    releaseSlot: record('release', true),
    restoreSlot: record('restore'),
    markChecked: record('checked'),
    heldSlots: record('held', 0),
    linkOfSession: async () => ({ id: 'pl_1', active: true, expires_at: null, max_payments: 2, payments_count: 0 }),
    staleSlots: async (): Promise<HeldSlot[]> => [],
    ...repo,
  } as unknown as PaymentLinkRepository;
  const viewSession = async (at: CheckoutLinkRef): Promise<CheckoutView | undefined> => {
    const view = views[at.session_id];
    if (view instanceof Error) throw view;
    return view === undefined ? undefined : ({ status: view } as CheckoutView);
  };
  const slots = new PaymentLinkSlots({ paymentLinks, viewSession, paymentTimeoutMs: 65_000, checkMarginMs: 10_000, clock: () => NOW, log: createLogger({ service: 'test', level: 'silent' }) });
  return { slots, calls };
}

describe('Payment link slots (D19)', () => {
  it("when the checkout link's token says its session was made through no payment link, then the card pays and nothing is read", async () => {
    const { slots } = slotsWith({ linkOfSession: async () => assert.fail('read for a session of no link'), claimSlot: async () => assert.fail('no slot for a session of no link') });
    assert.equal((await slots.claim(ref, 'pa_new', null)).ok, true);
  });

  it('when the token names the payment link, or says nothing (minted before tokens said it), then the link is read as ever', async () => {
    for (const paymentLink of ['pl_1', undefined]) {
      let read = 0;
      const { slots } = slotsWith({
        linkOfSession: async () => ((read += 1), { id: 'pl_1', active: false, expires_at: null, max_payments: null, payments_count: 0 }),
      });
      assert.deepEqual(await slots.claim(ref, 'pa_new', paymentLink), { ok: false, reason: 'closed' });
      assert.equal(read, 1);
    }
  });

  it('when the link is full of slots held, then the card is refused for now; used up, for good', async () => {
    for (const paid of [false, true]) {
      const { slots } = slotsWith({ claimSlot: async (): Promise<SlotClaim> => ({ outcome: 'full', linkId: 'pl_1', paid }) });
      assert.deepEqual(await slots.claim(ref, 'pa_new'), { ok: false, reason: paid ? 'used' : 'held' });
    }
  });

  it('when the session came from a deactivated, expired or used-up link, then no attempt may start and no slot is asked for (D29); a session of no link, or of an open unlimited link, pays', async () => {
    const open = { id: 'pl_1', active: true, expires_at: null, max_payments: null, payments_count: 0 };
    const cases = [
      [{ ...open, active: false }, 'closed'],
      [{ ...open, expires_at: NOW }, 'closed'],
      [{ ...open, max_payments: 1, payments_count: 1 }, 'used'],
    ] as const;
    for (const [link, reason] of cases) {
      const { slots, calls } = slotsWith({ linkOfSession: async () => link, claimSlot: async () => assert.fail('no slot for a closed link') });
      assert.deepEqual(await slots.claim(ref, 'pa_new'), { ok: false, reason });
      assert.deepEqual(calls, []);
    }
    for (const link of [undefined, open]) {
      const { slots } = slotsWith({ linkOfSession: async () => link, claimSlot: async () => assert.fail('no slot for an unlimited link') });
      assert.equal((await slots.claim(ref, 'pa_new')).ok, true);
    }
  });

  it('when the attempt is refused at its start, then a slot it took goes back, and one it took over goes back to the attempt before', async () => {
    const previous = { attemptId: 'pa_old', checkoutLinkId: 'cl_0', heldAt: NOW };
    const taken = slotsWith({ claimSlot: async (): Promise<SlotClaim> => ({ outcome: 'taken', linkId: 'pl_1' }) });
    const answer = await taken.slots.claim(ref, 'pa_new');
    assert.ok(answer.ok);
    await answer.notStarted();
    assert.deepEqual(taken.calls, ['release ps_1 pa_new']);

    const kept = slotsWith({ claimSlot: async (): Promise<SlotClaim> => ({ outcome: 'kept', linkId: 'pl_1', previous }) });
    const keptAnswer = await kept.slots.claim(ref, 'pa_new');
    assert.ok(keptAnswer.ok);
    await keptAnswer.notStarted();
    assert.deepEqual(kept.calls, ['restore ps_1 pa_new']);

    const none = slotsWith({ claimSlot: async (): Promise<SlotClaim> => ({ outcome: 'none' }) });
    const noneAnswer = await none.slots.claim(ref, 'pa_new');
    assert.ok(noneAnswer.ok);
    await noneAnswer.notStarted();
    assert.deepEqual(none.calls, []);
  });

  it('when a step answers, then only a decline that left the session not paying gives the slot back', async () => {
    const { slots, calls } = slotsWith({});
    await slots.afterStep('ps_1', 'pa_1', { outcome: 'declined', session: { status: 'PENDING' } });
    await slots.afterStep('ps_2', 'pa_2', { outcome: 'declined', session: { status: 'FAILED' } });
    await slots.afterStep('ps_3', 'pa_3', { outcome: 'approved', session: { status: 'SUCCEEDED' } });
    await slots.afterStep('ps_4', 'pa_4', { outcome: 'challenge' });
    await slots.afterStep('ps_5', 'pa_5', { outcome: 'pending' });
    await slots.afterStep('ps_6', 'pa_6', { outcome: 'declined' });
    assert.deepEqual(calls, ['release ps_1 pa_1', 'release ps_2 pa_2']);
  });

  it('when the link is full, then slots past the deadline are looked at: those paying kept, the others given back, an unanswered look leaves it held', async () => {
    let asked: Date[] = [];
    const stale: HeldSlot[] = [
      { sessionId: 'ps_processing', attemptId: 'pa_a', checkoutLinkId: 'cl_a' },
      { sessionId: 'ps_authorized', attemptId: 'pa_b', checkoutLinkId: 'cl_b' },
      { sessionId: 'ps_pending', attemptId: 'pa_c', checkoutLinkId: 'cl_c' },
      { sessionId: 'ps_gone', attemptId: 'pa_d', checkoutLinkId: 'cl_d' },
      { sessionId: 'ps_silent', attemptId: 'pa_e', checkoutLinkId: 'cl_e' },
    ];
    let held = 1;
    const { slots, calls } = slotsWith(
      {
        staleSlots: async (_link: string, heldBefore: Date, checkedBefore: Date) => ((asked = [heldBefore, checkedBefore]), stale),
        heldSlots: async () => held--,
      },
      { ps_processing: 'PROCESSING', ps_authorized: 'AUTHORIZED', ps_pending: 'PENDING', ps_silent: new Error('no answer') },
    );
    assert.equal(await slots.availability({ id: 'pl_1', max_payments: 1, payments_count: 0 }), 'open');
    assert.deepEqual(calls, ['checked ps_processing pa_a', 'checked ps_authorized pa_b', 'release ps_pending pa_c', 'release ps_gone pa_d']);
    // Past the payment step's deadline and its margin; not looked at in the last 10 s.
    assert.deepEqual(asked, [new Date(NOW.getTime() - 75_000), new Date(NOW.getTime() - 10_000)]);
  });

  it('when a link is unlimited or used up, then no slot is counted', async () => {
    const { slots, calls } = slotsWith({});
    assert.equal(await slots.availability({ id: 'pl_1', max_payments: null, payments_count: 9 }), 'open');
    assert.equal(await slots.availability({ id: 'pl_1', max_payments: 2, payments_count: 2 }), 'paid');
    assert.deepEqual(calls, []);
  });
});
