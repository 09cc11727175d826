/**
 * The adapter against recorded answers (fixtures/recorded-answers.ts, each
 * with its source): every shape public documentation and clients show reads
 * to the outcome it means.
 */
import assert from 'node:assert/strict';
import { errorCode } from '../../src/acquirer/clictopay/clictopay.codes.js';
import { toOperationResult, toOrderState, toPayResult, toRegisterResult } from '../../src/acquirer/clictopay/clictopay.transformers.js';
import { FINISHED_VER2, OPERATION_ANSWERS, PAY_ANSWERS, REGISTERED, STATUS_ANSWERS } from './fixtures/recorded-answers.js';

describe('Recorded acquirer answers', () => {
  for (const fixture of PAY_ANSWERS) {
    it(`when a card is answered "${fixture.shape}", then the next step is ${fixture.next}`, () => {
      assert.ok(fixture.source.startsWith('https://'));
      assert.equal(toPayResult(fixture.answer).kind, fixture.next);
    });
  }

  for (const fixture of STATUS_ANSWERS) {
    it(`when the status is "${fixture.shape}", then it reads as ${String(fixture.state?.['kind'])}`, () => {
      assert.ok(fixture.source.startsWith('https://'));
      assert.deepEqual(toOrderState(fixture.answer), fixture.state);
    });
  }

  for (const fixture of OPERATION_ANSWERS) {
    it(`when an order-management call is answered "${fixture.shape}", then it is ${fixture.outcome}`, () => {
      assert.ok(fixture.source.startsWith('https://'));
      assert.equal(toOperationResult(fixture.answer).kind, fixture.outcome);
    });
  }

  it('when register.do succeeds without any error code, then the order is registered; finish3dsVer2Payment.do\'s success reads as 0', () => {
    assert.deepEqual(toRegisterResult(REGISTERED.answer), { kind: 'registered', orderId: REGISTERED.answer.orderId });
    assert.equal(errorCode(FINISHED_VER2.answer), 0);
  });

  it('when the challenge answers carry what the browser posts, then they are read as they are', () => {
    const method = toPayResult(PAY_ANSWERS[1]?.answer ?? {});
    assert.deepEqual(method, {
      kind: 'method',
      serverTransId: '3f2b9d4c-8e1a-4b6f-a2d7-5c9e1f0a8b3d',
      url: 'https://acs.bank.example/3dsmethod',
      data: 'eyJ0aHJlZURTU2VydmVyVHJhbnNJRCI6IjNmMmIifQ',
    });
    assert.deepEqual(toPayResult(PAY_ANSWERS[3]?.answer ?? {}), {
      kind: 'challenge2',
      acsUrl: 'https://acs.bank.example/acs2/acs/creq',
      creq: 'eyJ0aHJlZURTU2VydmVyVHJhbnNJRCI6IjNmMmIifQ',
    });
  });
});
