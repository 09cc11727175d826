/**
 * A merchant's branding as its receipts show it (D20): the checkout's to say
 * (`branding.get`), kept RECEIPT_BRANDING_CACHE_MS so that a burst of
 * receipts of one merchant asks once, not once per receipt. A failed question
 * is not kept, and the receipts that asked fail (their events come again).
 */
import { KeptAnswers } from '../kept-answers.js';
import type { ReceiptBrand } from './receipts.js';

/** Merchants whose branding a replica keeps at most. */
const MAX_CACHED = 10_000;

/** `read`, each merchant's answer kept `cacheMs` (0: asked for each receipt). */
export function keptBrands(read: (merchantId: string) => Promise<ReceiptBrand>, cacheMs: number): (merchantId: string) => Promise<ReceiptBrand> {
  const kept = new KeptAnswers<ReceiptBrand>(cacheMs, MAX_CACHED);
  return (merchantId) => kept.get(merchantId, () => read(merchantId));
}
