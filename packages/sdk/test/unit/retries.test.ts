/** The SDK's retries with a scripted fetch: which answers are retried, how, and with which Idempotency-Key. */
import assert from 'node:assert/strict';
import { ApiServerError, ConflictError, Gateway } from '@gateway/sdk';

const problem = (status: number, suffix: string) =>
  new Response(JSON.stringify({ type: `https://pay.example.tn/errors/${suffix}`, title: suffix, status, detail: 'x' }), {
    status,
    headers: { 'content-type': 'application/problem+json' },
  });
const session = () => new Response(JSON.stringify({ id: 'ps_1' }), { status: 200, headers: { 'content-type': 'application/json' } });

/** A fetch answering from `answers` in turn and recording each request's method and Idempotency-Key. */
function scripted(answers: (() => Response)[]) {
  const calls: { method: string; key: string | null; at: number }[] = [];
  const fake: typeof fetch = (_input, init) => {
    calls.push({ method: init?.method ?? 'GET', key: new Headers(init?.headers).get('idempotency-key'), at: Date.now() });
    const next = answers.shift();
    if (!next) throw new Error('no more scripted answers');
    return Promise.resolve(next());
  };
  return { fake, calls };
}

describe('SDK retries', () => {
  it('when the gateway answers 500 then 502 then 200, then the call succeeds on the third attempt with growing pauses and one Idempotency-Key', async () => {
    const { fake, calls } = scripted([() => problem(500, 'internal-error'), () => problem(502, 'processor-unavailable'), session]);
    const gateway = new Gateway('sk_test_x', { fetch: fake, initialRetryDelayMs: 40 });
    const answer = await gateway.sessions.cancel('ps_1');
    assert.equal(answer.id, 'ps_1');
    assert.equal(calls.length, 3);
    assert.match(calls[0]?.key ?? '', /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.ok(calls.every((c) => c.key === calls[0]?.key));
    // Full jitter keeps each pause within [half, all] of 40 ms then 80 ms.
    const first = (calls[1]?.at ?? 0) - (calls[0]?.at ?? 0);
    const second = (calls[2]?.at ?? 0) - (calls[1]?.at ?? 0);
    assert.ok(first >= 19 && second >= 39, `pauses ${first} ms, ${second} ms`);
  });

  it('when a 500 carries Retry-After (a dependency out, D23), then the next attempt waits that long, not the shorter backoff', async () => {
    const unavailable = () => {
      const answer = problem(500, 'internal-error');
      answer.headers.set('retry-after', '1');
      return answer;
    };
    const { fake, calls } = scripted([unavailable, session]);
    const gateway = new Gateway('sk_test_x', { fetch: fake, initialRetryDelayMs: 1 });
    await gateway.sessions.get('ps_1');
    const pause = (calls[1]?.at ?? 0) - (calls[0]?.at ?? 0);
    assert.ok(pause >= 990, `paused ${pause} ms`);
  });

  it('when 5xx answers outlast the retries, then an ApiServerError carries the last problem', async () => {
    const { fake, calls } = scripted([() => problem(500, 'internal-error'), () => problem(502, 'processor-unavailable')]);
    const gateway = new Gateway('sk_test_x', { fetch: fake, maxRetries: 1, initialRetryDelayMs: 1 });
    await assert.rejects(gateway.sessions.get('ps_1'), (err: unknown) => err instanceof ApiServerError && err.status === 502 && err.code === 'processor-unavailable');
    assert.equal(calls.length, 2);
    assert.equal(calls[0]?.key, null, 'a GET carries no Idempotency-Key');
  });

  it('when the answer is a 503 or 504, then it is thrown at once: INTERFACE 7.1 retries only 429, 500 and 502', async () => {
    for (const status of [503, 504]) {
      const { fake, calls } = scripted([() => problem(status, 'internal-error'), session]);
      const gateway = new Gateway('sk_test_x', { fetch: fake, initialRetryDelayMs: 1 });
      await assert.rejects(gateway.sessions.get('ps_1'), (err: unknown) => err instanceof ApiServerError && err.status === status);
      assert.equal(calls.length, 1);
    }
  });

  it('when the gateway answers a 409, then it is thrown at once, never retried', async () => {
    const { fake, calls } = scripted([() => problem(409, 'session-terminal')]);
    const gateway = new Gateway('sk_test_x', { fetch: fake, initialRetryDelayMs: 1 });
    await assert.rejects(gateway.sessions.cancel('ps_1'), ConflictError);
    assert.equal(calls.length, 1);
  });

  it('when the endless event stream is asked for as a plain request, then it is refused before any call (events.stream() reads it)', async () => {
    const { fake, calls } = scripted([]);
    await assert.rejects(new Gateway('sk_test_x', { fetch: fake }).request('streamEvents', {}), /gateway\.events\.stream\(\)/);
    assert.equal(calls.length, 0);
  });

  it('when an API key is not one, then the client refuses to be built', () => {
    assert.throws(() => new Gateway('pk_test_x'), TypeError);
  });
});
