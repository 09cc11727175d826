import assert from 'node:assert/strict';
import { AppError, catalogue, retryAfterOf, temporarilyUnavailable, TEMPORARILY_UNAVAILABLE, toProblem, unlessNotFound, validationError } from '@gateway/problem';

describe('problem documents', () => {
  it('when an AppError is turned into a problem, then members come in the fixed order type, title, status, detail', () => {
    const body = JSON.stringify(toProblem(new AppError('unauthorized'), 'api.example.tn'));
    assert.equal(body, '{"type":"https://api.example.tn/errors/unauthorized","title":"Unauthorized","status":401,"detail":"Invalid or expired API key."}');
  });

  it('when a validation error is turned into a problem, then it carries its errors and the title Validation Error', () => {
    const doc = toProblem(validationError([{ field: 'amount', code: 'invalid_format', message: 'm' }]), 'h');
    assert.equal(doc.status, 422);
    assert.equal(doc.title, 'Validation Error');
    assert.deepEqual(doc.errors, [{ field: 'amount', code: 'invalid_format', message: 'm' }]);
  });

  it('when a conflict carries existing_session_id, then the problem shows it after the standard members', () => {
    const doc = toProblem(new AppError('conflict', 'd', { existing_session_id: 'ps_1' }), 'h');
    assert.deepEqual(Object.keys(doc), ['type', 'title', 'status', 'detail', 'existing_session_id']);
  });

  it('when anything else is thrown, then the problem is a 500 that says nothing of it', () => {
    const doc = toProblem(new Error('duplicate key value violates unique constraint "sessions_pkey" Key (id)=(x)'), 'h');
    assert.equal(doc.status, 500);
    assert.equal(JSON.stringify(doc).includes('duplicate'), false);
  });

  it('when an extension tries to replace a standard member, then the standard member wins', () => {
    const doc = toProblem(new AppError('not-found', 'd', { status: 200, type: 'x' }), 'h');
    assert.equal(doc.status, 404);
    assert.equal(doc.type, 'https://h/errors/not-found');
  });

  it('when the catalogue is read, then every INTERFACE 7.1 type has its status', () => {
    const expected: Record<string, number> = {
      unauthorized: 401, forbidden: 403, 'not-found': 404, conflict: 409, 'session-terminal': 409, 'validation-error': 422,
      'checkout-limit-exceeded': 422, 'invalid-state': 422, 'no-payment': 422, 'refund-failed': 422, 'no-terminal-configured': 422,
      'terminal-inactive': 422, 'terminal-rejected': 422, 'rate-limit-exceeded': 429, 'processor-unavailable': 502, 'internal-error': 500,
    };
    for (const [code, status] of Object.entries(expected)) assert.equal(catalogue[code as keyof typeof catalogue].status, status, code);
  });

  it('when an AppError travels over RPC, then it comes back equal', () => {
    const original = new AppError('conflict', 'd', { existing_session_id: 'ps_1' }, [{ field: 'f', code: 'c', message: 'm' }]);
    const back = AppError.fromWire(JSON.parse(JSON.stringify(original.toWire())));
    assert.deepEqual([back.code, back.detail, back.extensions, back.errors], [original.code, original.detail, original.extensions, original.errors]);
  });
});

describe('A read of what may not exist (unlessNotFound)', () => {
  it('when the read is refused as not-found, then it answers undefined; any other refusal or failure is thrown as it was', async () => {
    assert.equal(await unlessNotFound(Promise.resolve('found')), 'found');
    assert.equal(await unlessNotFound(Promise.reject(new AppError('not-found'))), undefined);
    await assert.rejects(unlessNotFound(Promise.reject(new AppError('forbidden'))), (err: AppError) => err.code === 'forbidden');
    await assert.rejects(unlessNotFound(Promise.reject(new Error('broken'))), /broken/);
  });
});

describe('A dependency out (D23)', () => {
  it('when the database or the broker is out, then the problem is a 500 internal-error that says so and asks for a wait of 1 to 5 seconds', () => {
    const seen = new Set<number>();
    for (let i = 0; i < 200; i += 1) {
      const err = temporarilyUnavailable();
      const seconds = retryAfterOf(err) ?? 0;
      assert.ok(seconds >= 1 && seconds <= 5, String(seconds));
      seen.add(seconds);
      const doc = toProblem(err, 'h');
      assert.equal(doc.status, 500);
      assert.equal(doc.detail, TEMPORARILY_UNAVAILABLE);
      // The wait is the Retry-After header's, not a member of the body.
      assert.deepEqual(Object.keys(doc), ['type', 'title', 'status', 'detail']);
    }
    // Drawn at random, so that the clients of one outage do not all come back in the same second.
    assert.ok(seen.size > 1);
  });

  it('when a problem asks for no wait, or for one that is not a whole positive number of seconds, then it has no Retry-After', () => {
    assert.equal(retryAfterOf(new AppError('internal-error')), undefined);
    assert.equal(retryAfterOf(new AppError('internal-error', 'd', { retry_after: 0 })), undefined);
    assert.equal(retryAfterOf(new AppError('internal-error', 'd', { retry_after: 1.5 })), undefined);
    assert.equal(retryAfterOf(new Error('x')), undefined);
    assert.equal(retryAfterOf(new AppError('rate-limit-exceeded', 'd', { retry_after: 30 })), 30);
  });
});
