/** sessions.capture with a scripted fetch (D22): the request it sends, and the typed error of each refusal. */
import assert from 'node:assert/strict';
import { ApiServerError, ConflictError, Gateway, InvalidRequestError, NotFoundError, signatureHeader, ValidationError, Webhooks, webhookEventTypes, type WebhookEventType } from '@gateway/sdk';

interface Sent {
  method: string;
  url: string;
  key: string | null;
  contentType: string | null;
  body: string | undefined;
}

const json = (status: number, body: unknown, type = 'application/json') => new Response(JSON.stringify(body), { status, headers: { 'content-type': type } });
const problem = (status: number, suffix: string, extra: Record<string, unknown> = {}) =>
  json(status, { type: `https://pay.example.tn/errors/${suffix}`, title: suffix, status, detail: 'x', ...extra }, 'application/problem+json');
const captured = () => json(200, { id: 'ps_1', status: 'SUCCEEDED', capture_method: 'manual', amount_authorized: '25.000', amount_captured: '10.000' });

/** A fetch answering from `answers` in turn and recording what each request sent. */
function scripted(answers: (() => Response)[]) {
  const sent: Sent[] = [];
  const fake: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    sent.push({ method: init?.method ?? 'GET', url: String(input), key: headers.get('idempotency-key'), contentType: headers.get('content-type'), body: init?.body as string | undefined });
    const next = answers.shift();
    if (!next) throw new Error('no more scripted answers');
    return Promise.resolve(next());
  };
  return { fake, sent };
}

const gatewayWith = (fake: typeof fetch) => new Gateway('sk_test_x', { baseUrl: 'https://pay.example.tn', fetch: fake, initialRetryDelayMs: 1 });

describe('SDK capture (D22)', () => {
  it('when part of a hold is captured, then the SDK POSTs the amount to the capture path with an Idempotency-Key and answers the session', async () => {
    const { fake, sent } = scripted([captured]);
    const session = await gatewayWith(fake).sessions.capture('ps_1', { amount: '10.000' });
    assert.equal(session.status, 'SUCCEEDED');
    assert.equal(session.amount_captured, '10.000');
    assert.equal(sent.length, 1);
    assert.equal(sent[0]?.method, 'POST');
    assert.equal(sent[0]?.url, 'https://pay.example.tn/api/v1/gateway/sessions/ps_1/capture/');
    assert.equal(sent[0]?.contentType, 'application/json');
    assert.deepEqual(JSON.parse(sent[0]?.body ?? ''), { amount: '10.000' });
    assert.match(sent[0]?.key ?? '', /^[0-9a-f-]{36}$/);
  });

  it('when no amount is given, then the body is empty of fields, which captures the whole hold', async () => {
    const { fake, sent } = scripted([captured]);
    await gatewayWith(fake).sessions.capture('ps_1');
    assert.deepEqual(JSON.parse(sent[0]?.body ?? ''), {});
  });

  it('when the caller gives an Idempotency-Key, then it is the one sent', async () => {
    const { fake, sent } = scripted([captured]);
    await gatewayWith(fake).sessions.capture('ps_1', {}, { idempotencyKey: 'capture-order-1042' });
    assert.equal(sent[0]?.key, 'capture-order-1042');
  });

  it('when the capture answer is a 502, then it is retried with the same Idempotency-Key', async () => {
    const { fake, sent } = scripted([() => problem(502, 'processor-unavailable'), captured]);
    const session = await gatewayWith(fake).sessions.capture('ps_1', { amount: '10.000' });
    assert.equal(session.amount_captured, '10.000');
    assert.equal(sent.length, 2);
    assert.equal(sent[1]?.key, sent[0]?.key);
  });

  it('when the acquirer refuses the capture (422 capture-failed), then an InvalidRequestError says so, as refund-failed does, without retrying', async () => {
    const { fake, sent } = scripted([() => problem(422, 'capture-failed')]);
    await assert.rejects(gatewayWith(fake).sessions.capture('ps_1'), (err: unknown) => err instanceof InvalidRequestError && err.status === 422 && err.code === 'capture-failed');
    assert.equal(sent.length, 1);
  });

  it('when the session is not AUTHORIZED (422 invalid-state), then an InvalidRequestError carries that code', async () => {
    const { fake } = scripted([() => problem(422, 'invalid-state')]);
    await assert.rejects(gatewayWith(fake).sessions.capture('ps_1'), (err: unknown) => err instanceof InvalidRequestError && err.code === 'invalid-state');
  });

  it('when the amount is above the hold, then a ValidationError names amount_too_large on amount', async () => {
    const { fake } = scripted([() => problem(422, 'validation-error', { errors: [{ field: 'amount', code: 'amount_too_large', message: 'too large' }] })]);
    await assert.rejects(gatewayWith(fake).sessions.capture('ps_1', { amount: '99.000' }), (err: unknown) => {
      assert.ok(err instanceof ValidationError);
      assert.deepEqual(err.errors.map((e) => `${e.field}:${e.code}`), ['amount:amount_too_large']);
      return true;
    });
  });

  it('when the session is terminal or a capture is under way (409), then a ConflictError carries the code; a missing session is a NotFoundError', async () => {
    for (const code of ['session-terminal', 'conflict']) {
      const { fake, sent } = scripted([() => problem(409, code)]);
      await assert.rejects(gatewayWith(fake).sessions.capture('ps_1'), (err: unknown) => err instanceof ConflictError && err.code === code);
      assert.equal(sent.length, 1, `${code} is not retried`);
    }
    const { fake } = scripted([() => problem(404, 'not-found')]);
    await assert.rejects(gatewayWith(fake).sessions.capture('ps_1'), NotFoundError);
  });

  it('when 502s outlast the retries, then an ApiServerError carries processor-unavailable', async () => {
    const { fake } = scripted([() => problem(502, 'processor-unavailable'), () => problem(502, 'processor-unavailable')]);
    const gateway = new Gateway('sk_test_x', { fetch: fake, maxRetries: 1, initialRetryDelayMs: 1 });
    await assert.rejects(gateway.sessions.capture('ps_1'), (err: unknown) => err instanceof ApiServerError && err.code === 'processor-unavailable');
  });
});

describe('SDK webhook event types', () => {
  it('when the SDK lists the event types the gateway sends, then session.authorized is among them, and a type added later still type-checks', () => {
    assert.ok(webhookEventTypes.includes('session.authorized'));
    assert.ok(webhookEventTypes.includes('session.succeeded'));
    const later: WebhookEventType = 'session.something_new';
    assert.equal(typeof later, 'string');
  });

  it('when a session.authorized delivery verifies, then the event gives the hold: capture_method, authorized_at, amount_authorized, and a payment without fee', () => {
    const data = {
      id: 'ps_1',
      status: 'AUTHORIZED',
      amount: '25.000',
      capture_method: 'manual',
      authorized_at: '2026-11-26T09:00:00.000Z',
      amount_authorized: '25.000',
      payment: { method: 'card', card_brand: 'visa', card_last_four: '4242', card_country: '' },
    };
    const body = JSON.stringify({ id: 'evt_2', event: 'session.authorized', created_at: '2026-11-26T09:00:00.000Z', data });
    const now = 1_764_147_600;
    const event = new Webhooks().constructEvent(body, signatureHeader(['whsec_a'], now, body), 'whsec_a', { nowSeconds: now });
    assert.equal(event.event, 'session.authorized');
    assert.equal(event.data.status, 'AUTHORIZED');
    assert.equal(event.data.amount_authorized, '25.000');
    assert.equal(event.data.capture_method, 'manual');
    assert.equal(event.data.payment?.fee_amount, undefined);
  });
});
