/**
 * The merchant_reference a payment link's sessions use (D19), `<link id>-<n>`:
 * kept for the link path, refused to every other caller with the other
 * field errors, and only that shape.
 */
import assert from 'node:assert/strict';
import { checkCreateRequest, PAYMENT_LINK_REFERENCE } from '../../src/domain/validate-create-request.js';

const body = { amount: '10.000', first_name: 'Amira', last_name: 'Ben Salah', email: 'amira@example.tn' };
const linkReference = 'pl_0123456789ABCDEFGHIJab-7';

describe("A payment link's merchant_reference (D19)", () => {
  it("when a merchant's create uses a link's reference, then merchant_reference is refused beside the other errors, in request order", () => {
    const checked = checkCreateRequest({ merchant_reference: linkReference, ...body, email: 'not-an-address' }, false);
    assert.equal(checked.ok, false);
    if (checked.ok) return;
    assert.deepEqual(
      checked.errors.map((e) => [e.field, e.code]),
      [
        ['merchant_reference', 'invalid'],
        ['email', 'invalid'],
      ],
    );
    assert.match(checked.errors[0]?.message ?? '', /payment links/);
  });

  it('when the link path creates with its reference, then it passes', () => {
    assert.equal(checkCreateRequest({ merchant_reference: linkReference, ...body }, false, { forPaymentLink: true }).ok, true);
  });

  it('when a reference merely starts with pl_ or has another shape, then it is the merchant\'s to use', () => {
    for (const reference of ['pl_order-7', 'pl_', 'pl_0123456789ABCDEFGHIJab', 'pl_0123456789ABCDEFGHIJab-x', 'x-pl_0123456789ABCDEFGHIJab-7', 'pl_short-1']) {
      assert.equal(PAYMENT_LINK_REFERENCE.test(reference), false, reference);
      assert.equal(checkCreateRequest({ merchant_reference: reference, ...body }, false).ok, true, reference);
    }
  });
});
