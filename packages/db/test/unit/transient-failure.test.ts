import { strict as assert } from 'node:assert';
import { transientFailure } from '../../src/index.js';

const failure = (code: string, message = 'failed') => Object.assign(new Error(message), { code });

describe('transient failures of the database', () => {
  it('when the connection is refused, reset or lost, then the work is worth trying again', () => {
    for (const code of ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE']) assert.equal(transientFailure(failure(code)), true, code);
    assert.equal(transientFailure(new Error('Connection terminated unexpectedly')), true);
    assert.equal(transientFailure(new Error('timeout exceeded when trying to connect')), true);
  });

  it('when PostgreSQL refuses for its own state (shutting down, read-only, privileges, a relation not migrated yet), then it is worth trying again', () => {
    for (const code of ['57P01', '57P03', '25006', '53300', '40001', '40P01', '42501', '42P01', '42703', '42883', '08006', '55P03']) assert.equal(transientFailure(failure(code)), true, code);
  });

  it("when PostgreSQL refuses the work's data or a constraint it breaks, or the error is not the database's, then it is not", () => {
    for (const code of ['22P02', '22001', '23505', '23503']) assert.equal(transientFailure(failure(code)), false, code);
    // Bugs and refusals no retry changes: a syntax error, a type mismatch, more than one row, a raised exception, an internal error.
    for (const code of ['42601', '42804', '21000', '0A000', '54000', 'P0001', 'XX000', '08P01']) assert.equal(transientFailure(failure(code)), false, code);
    // Node's own codes that look like a SQLSTATE.
    for (const code of ['EPERM', 'EBADF', 'EROFS']) assert.equal(transientFailure(failure(code)), false, code);
    assert.equal(transientFailure(new TypeError("cannot read properties of undefined (reading 'id')")), false);
    assert.equal(transientFailure(undefined), false);
  });
});
