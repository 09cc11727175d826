/**
 * The adapter's 3-D Secure against the sandbox acquirer (D30's cards): 3-D
 * Secure 2 with a 3DS Method step then frictionless approval (3238) or a
 * challenge (3220, finished with finish3dsVer2Payment.do, or by the acquirer
 * itself on a deployment without it), 3-D Secure 2 refused by the issuer on
 * the repeat (3246), 3-D Secure 1's challenge posted to the ACS (3063), and
 * the browser's return by GET.
 */
import assert from 'node:assert/strict';
import type { CommandReply, CommandRequest, StartedAttempt } from '@gateway/contracts';
import { metricValue, TestSystem } from '@gateway/testkit';
import { newAttempt, sealCard } from './support.js';

/** Posts a form as the buyer's browser does; redirects are not followed. */
async function post(url: string, form: Record<string, string>): Promise<{ status: number; text: string; location: string | null }> {
  const res = await fetch(url, { method: 'POST', redirect: 'manual', body: new URLSearchParams(form) });
  return { status: res.status, text: await res.text(), location: res.headers.get('location') };
}

/** The buyer at the sandbox's ACS: the challenge posted, the answer chosen; the form that takes them back (its action and fields). */
async function atTheAcs(sandboxUrl: string, challenge: Record<string, string>, result: 'Y' | 'N'): Promise<{ action: string; fields: Record<string, string> }> {
  const page = await post(`${sandboxUrl}/acs`, challenge);
  const decision = /name="decision" value="([^"]+)"/.exec(page.text)?.[1] ?? '';
  const back = await post(`${sandboxUrl}/acs/answer`, { decision, result });
  const action = /<form method="post" action="([^"]+)">/.exec(back.text)?.[1] ?? '';
  const fields = Object.fromEntries([...back.text.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map(([, name, value]) => [name ?? '', value ?? '']));
  return { action: action.replaceAll('&amp;', '&'), fields };
}

type Step = CommandReply<'payment.authorize'>;

const TERM_URL = 'https://pay.example/checkout/tok/3ds/pa_x';
const BUYER = { ip: '197.15.2.40', email: 'amina@example.tn', phone: '+216 71 000 000' };

describe('Acquirer adapter, 3-D Secure with the sandbox', function () {
  this.timeout(60_000);
  let system: TestSystem;

  before(async () => {
    system = await TestSystem.start({ services: ['acquirer-adapter', 'epg-sandbox'] });
  });

  after(async () => {
    await system?.shutdown();
  });

  async function authorize(attempt: StartedAttempt, pan: string): Promise<Step> {
    return system.send<Step>('payment.authorize', { attempt, card: sealCard(system, attempt.attempt_id, pan), term_url: TERM_URL, buyer: BUYER, language: 'ar' });
  }

  function finish(attempt: StartedAttempt, returned: CommandRequest<'payment.finish_3ds'>['returned']): Promise<Step> {
    return system.send<Step>('payment.finish_3ds', { session_id: attempt.session_id, attempt_id: attempt.attempt_id, returned });
  }

  async function order(attemptId: string): Promise<{ status: string; order_number: string; sealed_card: string | null; three_ds_server_trans_id: string | null }> {
    const [row] = await system.db.query<{ status: string; order_number: string; sealed_card: string | null; three_ds_server_trans_id: string | null }>(
      'SELECT status, order_number, sealed_card, three_ds_server_trans_id FROM acquirer.orders WHERE attempt_id = $1',
      [attemptId],
    );
    assert.ok(row);
    return row;
  }

  const cardsSent = async () => metricValue(await system.metricsOf('acquirer-adapter'), 'gateway_acquirer_call_duration_seconds_count', ['call="paymentorder.do"']) ?? 0;

  it('when card 3238 pays, then the browser is given the 3DS Method form; once it ran, the card goes again with its transaction and is approved without a challenge', async () => {
    const attempt = newAttempt();
    const step = await authorize(attempt, '4000000000003238');
    assert.equal(step.outcome, 'method');
    // The sandbox's public address (SANDBOX_PUBLIC_URL), where the buyer's browser reaches it.
    assert.match(step.method?.url ?? '', /^https?:\/\/[^/]+\/3ds-method$/);
    assert.deepEqual(Object.keys(step.method?.fields ?? {}), ['threeDSMethodData']);
    const waiting = await order(attempt.attempt_id);
    assert.equal(waiting.status, 'METHOD');
    assert.ok(waiting.sealed_card && waiting.three_ds_server_trans_id);

    // The browser posts the method (here, as the hidden frame would), then the page goes on.
    const ran = await fetch(`${system.sandboxUrl}/3ds-method`, { method: 'POST', body: new URLSearchParams(step.method?.fields ?? {}) });
    assert.equal(ran.status, 200);
    const before = await cardsSent();
    const done = await finish(attempt, { kind: 'method', completed: true });
    assert.equal(done.outcome, 'approved');
    assert.equal(done.approved?.attempt_id, attempt.attempt_id);
    assert.equal((await cardsSent()) - before, 1);
    const after = await order(attempt.attempt_id);
    assert.deepEqual([after.status, after.sealed_card], ['APPROVED', null]);
    const atAcquirer = await system.sandboxCall('getOrderStatusExtended.do', { orderNumber: after.order_number });
    assert.equal(atAcquirer['orderStatus'], 2);
    // The buyer went with the card (D30).
    assert.equal(atAcquirer['ip'], BUYER.ip);
    assert.deepEqual(atAcquirer['payerData'], { email: BUYER.email, phone: BUYER.phone });

    // A late or repeated method return sends nothing and answers the outcome.
    const again = await finish(attempt, { kind: 'method', completed: false });
    assert.equal(again.outcome, 'approved');
    assert.equal((await cardsSent()) - before, 1);
  });

  it('when the 3DS Method frame never loads, then the page\'s 10 s pass and the card goes again all the same', async () => {
    const attempt = newAttempt();
    assert.equal((await authorize(attempt, '4000000000003238')).outcome, 'method');
    assert.equal((await finish(attempt, { kind: 'method', completed: false })).outcome, 'approved');
  });

  it('when the browser comes back by GET while the 3DS Method runs, then nothing changes: the method still goes on to the payment', async () => {
    const attempt = newAttempt();
    assert.equal((await authorize(attempt, '4000000000003238')).outcome, 'method');
    assert.equal((await finish(attempt, { kind: 'return' })).outcome, 'pending');
    assert.equal((await order(attempt.attempt_id)).status, 'METHOD');
    assert.equal((await finish(attempt, { kind: 'method', completed: true })).outcome, 'approved');
  });

  it('when card 3246 pays, then the card goes again at once (no 3DS Method) and the issuer\'s refusal (151017) declines it authentication_failed', async () => {
    const attempt = newAttempt();
    const before = await cardsSent();
    const step = await authorize(attempt, '4000000000003246');
    assert.deepEqual([step.outcome, step.failure_code], ['declined', 'authentication_failed']);
    assert.equal((await cardsSent()) - before, 2);
    assert.deepEqual([(await order(attempt.attempt_id)).status, (await order(attempt.attempt_id)).sealed_card], ['DECLINED', null]);
  });

  it('when card 3063 pays, then the challenge is 3-D Secure 1\'s form (PaReq, MD, our TermUrl); the posted PaRes finishes it, and a GET back after that changes nothing', async () => {
    const attempt = newAttempt();
    const step = await authorize(attempt, '4000000000003063');
    assert.equal(step.outcome, 'challenge');
    const fields = step.challenge?.fields ?? {};
    assert.deepEqual(Object.keys(fields), ['PaReq', 'MD', 'TermUrl']);
    assert.deepEqual([fields['MD'], fields['TermUrl']], [attempt.attempt_id, TERM_URL]);
    const back = await atTheAcs(system.sandboxUrl, fields, 'Y');
    assert.equal(back.action, TERM_URL);
    assert.equal(back.fields['MD'], attempt.attempt_id);
    const done = await finish(attempt, { kind: 'pa_res', pa_res: back.fields['PaRes'] ?? '' });
    assert.equal(done.outcome, 'approved');
    assert.equal((await finish(attempt, { kind: 'return' })).outcome, 'approved');
    // A cres is not what a 3-D Secure 1 challenge awaited: it answers where the order stands.
    assert.equal((await finish(attempt, { kind: 'cres', cres: 'eyJ9' })).outcome, 'approved');
  });

  it('when a PaRes of another attempt\'s challenge is posted for this one, then the acquirer refuses it: this attempt is declined, never paid, and the other still finishes with its own', async () => {
    const mine = newAttempt();
    const theirs = newAttempt();
    const myChallenge = await authorize(mine, '4000000000003063');
    const theirChallenge = await authorize(theirs, '4000000000003063');
    const theirPaRes = (await atTheAcs(system.sandboxUrl, theirChallenge.challenge?.fields ?? {}, 'Y')).fields['PaRes'] ?? '';
    assert.equal(myChallenge.outcome, 'challenge');
    const wrong = await finish(mine, { kind: 'pa_res', pa_res: theirPaRes });
    assert.deepEqual([wrong.outcome, wrong.failure_code], ['declined', 'authentication_failed']);
    assert.equal((await system.sandboxCall('getOrderStatusExtended.do', { orderNumber: (await order(mine.attempt_id)).order_number }))['orderStatus'], 5, 'nothing paid');
    assert.equal((await finish(theirs, { kind: 'pa_res', pa_res: theirPaRes })).outcome, 'approved');
  });

  it('when another session asks to finish the attempt, then it is not found', async () => {
    const attempt = newAttempt();
    assert.equal((await authorize(attempt, '4000000000003238')).outcome, 'method');
    await assert.rejects(system.send('payment.finish_3ds', { session_id: 'ps_someone_else', attempt_id: attempt.attempt_id, returned: { kind: 'method', completed: true } }), /No payment attempt/);
    assert.equal((await order(attempt.attempt_id)).status, 'METHOD');
  });

  /** Card 3220 through its 3DS Method: the challenge form the browser posts to the ACS. */
  async function challenged(attempt: StartedAttempt): Promise<Record<string, string>> {
    const step = await authorize(attempt, '4000000000003220');
    assert.equal(step.outcome, 'method');
    await post(`${system.sandboxUrl}/3ds-method`, step.method?.fields ?? {});
    const challenge = await finish(attempt, { kind: 'method', completed: true });
    assert.equal(challenge.outcome, 'challenge');
    assert.deepEqual(Object.keys(challenge.challenge?.fields ?? {}), ['creq']);
    assert.match(challenge.challenge?.url ?? '', /\/acs$/);
    return challenge.challenge?.fields ?? {};
  }

  it('when card 3220 completes its challenge, then the ACS posts cres to our TermUrl, and finish3dsVer2Payment.do with the transaction approves it, once', async () => {
    const attempt = newAttempt();
    const back = await atTheAcs(system.sandboxUrl, await challenged(attempt), 'Y');
    assert.equal(back.action, TERM_URL, 'threeDSVer2FinishUrl is the attempt\'s own address');
    const cres = back.fields['cres'] ?? '';
    const done = await finish(attempt, { kind: 'cres', cres });
    assert.equal(done.outcome, 'approved');
    const finishes = async () => metricValue(await system.metricsOf('acquirer-adapter'), 'gateway_acquirer_call_duration_seconds_count', ['call="finish3dsVer2Payment.do"']) ?? 0;
    const sent = await finishes();
    // The browser posts the same cres again (a refresh): the outcome recorded is answered, nothing is sent.
    assert.equal((await finish(attempt, { kind: 'cres', cres })).outcome, 'approved');
    assert.equal(await finishes(), sent);
    const row = await order(attempt.attempt_id);
    assert.deepEqual([row.status, row.sealed_card], ['APPROVED', null]);
  });

  it('when card 3220 fails its challenge, then the attempt is declined authentication_failed', async () => {
    const attempt = newAttempt();
    const back = await atTheAcs(system.sandboxUrl, await challenged(attempt), 'N');
    const done = await finish(attempt, { kind: 'cres', cres: back.fields['cres'] ?? '' });
    assert.deepEqual([done.outcome, done.failure_code], ['declined', 'authentication_failed']);
  });

  it('when the cres of another attempt\'s challenge is posted back for this one, then it is turned away and this challenge still waits', async () => {
    const mine = newAttempt();
    const theirs = newAttempt();
    await challenged(mine);
    const theirCres = (await atTheAcs(system.sandboxUrl, await challenged(theirs), 'Y')).fields['cres'] ?? '';
    await assert.rejects(finish(mine, { kind: 'cres', cres: theirCres }), /not for this payment/);
    assert.equal((await order(mine.attempt_id)).status, 'CHALLENGED');
    assert.equal((await finish(theirs, { kind: 'cres', cres: theirCres })).outcome, 'approved');
  });
});

describe('Acquirer adapter, 3-D Secure 2 on a deployment without finish3dsVer2Payment.do', function () {
  this.timeout(60_000);
  let system: TestSystem;

  before(async () => {
    system = await TestSystem.start({ services: ['acquirer-adapter', 'epg-sandbox'], serviceEnv: { 'epg-sandbox': { SANDBOX_WITHOUT_FINISH_3DS_VER2: 'true' } } });
  });

  after(async () => {
    await system?.shutdown();
  });

  function finish(attempt: StartedAttempt, returned: CommandRequest<'payment.finish_3ds'>['returned']): Promise<Step> {
    return system.send<Step>('payment.finish_3ds', { session_id: attempt.session_id, attempt_id: attempt.attempt_id, returned });
  }

  it('when card 3220 completes its challenge, then the acquirer finishes the order itself and sends the browser back by GET to our return address; that return approves it', async () => {
    const attempt = newAttempt();
    const step = await system.send<Step>('payment.authorize', { attempt, card: sealCard(system, attempt.attempt_id, '4000000000003220'), term_url: TERM_URL });
    assert.equal(step.outcome, 'method');
    const challenge = await finish(attempt, { kind: 'method', completed: false });
    const back = await atTheAcs(system.sandboxUrl, challenge.challenge?.fields ?? {}, 'Y');
    assert.notEqual(back.action, TERM_URL, 'the ACS posts to the acquirer\'s own finish');
    const finished = await post(back.action.replace(/^https?:\/\/[^/]+/, system.sandboxUrl), back.fields);
    assert.equal(finished.status, 303);
    assert.ok(finished.location?.startsWith(`${TERM_URL}?orderId=`), String(finished.location));
    const done = await finish(attempt, { kind: 'return' });
    assert.equal(done.outcome, 'approved');
    assert.equal((await finish(attempt, { kind: 'return' })).outcome, 'approved');
  });

  it('when a cres reaches us anyway, then finish3dsVer2Payment.do answers 404 and the order status decides: still awaiting its finish, the attempt stays pending', async () => {
    const attempt = newAttempt();
    await system.send<Step>('payment.authorize', { attempt, card: sealCard(system, attempt.attempt_id, '4000000000003220'), term_url: TERM_URL });
    const challenge = await finish(attempt, { kind: 'method', completed: true });
    const back = await atTheAcs(system.sandboxUrl, challenge.challenge?.fields ?? {}, 'Y');
    assert.equal((await finish(attempt, { kind: 'cres', cres: back.fields['cres'] ?? '' })).outcome, 'pending');
    // The acquirer's own finish comes, and the browser's GET return records it.
    await post(back.action.replace(/^https?:\/\/[^/]+/, system.sandboxUrl), back.fields);
    assert.equal((await finish(attempt, { kind: 'return' })).outcome, 'approved');
  });
});
