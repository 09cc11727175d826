/**
 * Flouci payments in memory, oldest first. Beyond the retention the oldest
 * are forgotten, as orders are (order.store.ts): a forgotten payment is
 * unknown to every call and its page.
 */
import type { WalletPayment } from './wallet-payment.js';

export class WalletPaymentStore {
  private readonly payments = new Map<string, WalletPayment>();

  constructor(private readonly retention: number) {
    if (!Number.isSafeInteger(retention) || retention < 1) throw new RangeError('retention must be a positive integer');
  }

  get size(): number {
    return this.payments.size;
  }

  add(payment: WalletPayment): void {
    this.payments.set(payment.paymentId, payment);
    while (this.payments.size > this.retention) this.evictOldest();
  }

  /** The application's payment with this id; another application's payment is as unknown. */
  byId(app: string, paymentId: string): WalletPayment | undefined {
    const payment = this.payments.get(paymentId);
    return payment?.app === app ? payment : undefined;
  }

  /** A payment whatever its application, for its page, which the payment's id alone opens (as Flouci's link does). */
  byIdAnyApp(paymentId: string): WalletPayment | undefined {
    return this.payments.get(paymentId);
  }

  private evictOldest(): void {
    const oldest = this.payments.keys().next();
    if (!oldest.done) this.payments.delete(oldest.value);
  }
}
