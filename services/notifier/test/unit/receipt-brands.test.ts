/** The merchant's branding as receipts show it (D20): the checkout's answer kept RECEIPT_BRANDING_CACHE_MS, asked once for receipts that ask together, a failure not kept. */
import assert from 'node:assert/strict';
import { keptBrands } from '../../src/domain/receipt-brands.js';
import type { ReceiptBrand } from '../../src/domain/receipts.js';

const LOGO = `https://pay.example.tn/checkout/brand/${'a'.repeat(64)}.png`;

/** The checkout as a receipt asks it: each question waits until the test answers it. */
function checkout() {
  const asked: { merchantId: string; answer: (brand: ReceiptBrand) => void; fail: (err: Error) => void }[] = [];
  const read = (merchantId: string) => new Promise<ReceiptBrand>((answer, fail) => asked.push({ merchantId, answer, fail }));
  return { asked, read };
}

describe("The merchant's branding on receipts (D20)", () => {
  it('when receipts of one merchant come together and after, then the checkout is asked once, per merchant', async () => {
    const { asked, read } = checkout();
    const brandOf = keptBrands(read, 60_000);
    const together = [brandOf('mer_1'), brandOf('mer_1'), brandOf('mer_2')];
    assert.deepEqual(asked.map((q) => q.merchantId), ['mer_1', 'mer_2']);
    asked[0]?.answer({ logoUrl: LOGO, accentColor: '#0b5cad' });
    asked[1]?.answer({});
    assert.deepEqual(await Promise.all(together), [{ logoUrl: LOGO, accentColor: '#0b5cad' }, { logoUrl: LOGO, accentColor: '#0b5cad' }, {}]);
    assert.deepEqual(await brandOf('mer_1'), { logoUrl: LOGO, accentColor: '#0b5cad' });
    assert.equal(asked.length, 2);
  });

  it('when the checkout does not answer, then the receipts that asked fail and the next one asks again', async () => {
    const { asked, read } = checkout();
    const brandOf = keptBrands(read, 60_000);
    const failing = brandOf('mer_1');
    asked[0]?.fail(new Error('checkout unreachable'));
    await assert.rejects(failing, /checkout unreachable/);
    const again = brandOf('mer_1');
    assert.equal(asked.length, 2);
    asked[1]?.answer({ accentColor: '#112233' });
    assert.deepEqual(await again, { accentColor: '#112233' });
  });

  it('when what was kept lapses, or the cache is off (0 ms), then the checkout is asked again', async () => {
    const { asked, read } = checkout();
    const brandOf = keptBrands(read, 30);
    const first = brandOf('mer_1');
    asked[0]?.answer({});
    await first;
    await new Promise((resolve) => setTimeout(resolve, 40));
    void brandOf('mer_1');
    assert.equal(asked.length, 2);
    const uncached = checkout();
    const everyTime = keptBrands(uncached.read, 0);
    void everyTime('mer_1');
    void everyTime('mer_1');
    assert.equal(uncached.asked.length, 2);
  });
});
