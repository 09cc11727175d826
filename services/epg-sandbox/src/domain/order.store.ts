/**
 * Orders in memory, oldest first. Beyond the retention the oldest are
 * forgotten, together with their place in their terminal's orderNumber index
 * (so a forgotten orderNumber may be registered again) and in the 3-D Secure
 * 2 transaction index.
 */
import type { Order } from './order.js';

export class OrderStore {
  private readonly orders = new Map<string, Order>();
  /** terminal → orderNumber → orderId */
  private readonly numbers = new Map<string, Map<string, string>>();
  /** threeDSServerTransId → orderId */
  private readonly transactions = new Map<string, string>();

  constructor(private readonly retention: number) {
    if (!Number.isSafeInteger(retention) || retention < 1) throw new RangeError('retention must be a positive integer');
  }

  get size(): number {
    return this.orders.size;
  }

  /** Keeps a new order; false (and nothing kept) when its terminal already used its orderNumber. */
  add(order: Order): boolean {
    let numbers = this.numbers.get(order.terminal);
    if (numbers?.has(order.orderNumber)) return false;
    if (!numbers) {
      numbers = new Map();
      this.numbers.set(order.terminal, numbers);
    }
    numbers.set(order.orderNumber, order.orderId);
    this.orders.set(order.orderId, order);
    while (this.orders.size > this.retention) this.evictOldest();
    return true;
  }

  /** The terminal's order with this id; another terminal's order is as unknown. */
  byId(terminal: string, orderId: string): Order | undefined {
    const order = this.orders.get(orderId);
    return order?.terminal === terminal ? order : undefined;
  }

  /** An order whatever its terminal, for the issuer's page, which a signed paReq opens. */
  byIdAnyTerminal(orderId: string): Order | undefined {
    return this.orders.get(orderId);
  }

  /** Indexes an order by its 3-D Secure 2 transaction, once it has one. */
  trackThreeDS2(order: Order): void {
    if (order.threeDS2) this.transactions.set(order.threeDS2.serverTransId, order.orderId);
  }

  /** The order of a 3-D Secure 2 transaction, whatever its terminal: the 3DS Method, the ACS and cres name it so. */
  byServerTransId(serverTransId: string): Order | undefined {
    const orderId = this.transactions.get(serverTransId);
    return orderId === undefined ? undefined : this.orders.get(orderId);
  }

  /** The terminal's order with this orderNumber. */
  byNumber(terminal: string, orderNumber: string): Order | undefined {
    const orderId = this.numbers.get(terminal)?.get(orderNumber);
    return orderId === undefined ? undefined : this.byId(terminal, orderId);
  }

  /** True when the terminal registered this orderNumber and it is still remembered. */
  hasNumber(terminal: string, orderNumber: string): boolean {
    return this.numbers.get(terminal)?.has(orderNumber) ?? false;
  }

  private evictOldest(): void {
    const oldest = this.orders.values().next();
    if (oldest.done) return;
    const order = oldest.value;
    this.orders.delete(order.orderId);
    const numbers = this.numbers.get(order.terminal);
    if (numbers?.get(order.orderNumber) === order.orderId) numbers.delete(order.orderNumber);
    if (numbers?.size === 0) this.numbers.delete(order.terminal);
    if (order.threeDS2) this.transactions.delete(order.threeDS2.serverTransId);
  }
}
