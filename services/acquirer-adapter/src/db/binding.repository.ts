/**
 * The acquirer's bindings of saved cards (D24), each under its payment
 * method's id. A binding id is stored encrypted (D17), bound to its row, and
 * decrypted only to charge or unbind the card: it never leaves this service.
 */
import { leaseClaim, type Pool } from '@gateway/db';
import type { SecretBox } from '@gateway/secrets';

export interface NewBinding {
  paymentMethodId: string;
  merchantId: string;
  livemode: boolean;
  customerId: string;
  bindingId: string;
}

/** A binding that may be charged: the card is attached, and the acquirer still binds it. */
export interface UsableBinding {
  paymentMethodId: string;
  customerId: string;
  bindingId: string;
}

/** A detached card's binding, to unbind at the acquirer. */
export interface DetachedBinding {
  paymentMethodId: string;
  merchantId: string;
  livemode: boolean;
  bindingId: string;
}

interface DetachedRow {
  payment_method_id: string;
  merchant_id: string;
  livemode: boolean;
  binding_ciphertext: string;
}

const DETACHED_COLUMNS = 'payment_method_id, merchant_id, livemode, binding_ciphertext';

/** Up to $1 detached bindings due for unbinding, each taken for $2 seconds. */
const UNBIND_DUE = leaseClaim({
  table: 'bindings',
  key: 'payment_method_id',
  where: 'unbind_due_at <= now() AND unbound_at IS NULL',
  orderBy: 'unbind_due_at',
  limit: '$1',
  set: 'unbind_due_at = now() + make_interval(secs => $2)',
  returning: DETACHED_COLUMNS,
});

/** What a binding's ciphertext is bound to: a copy in another row does not decrypt. */
const bindingAad = (paymentMethodId: string) => `bindings.binding_ciphertext:${paymentMethodId}`;

export class BindingRepository {
  constructor(
    private readonly pool: Pool,
    private readonly secrets: SecretBox,
  ) {}

  /**
   * Keeps the binding of a card just saved; a second save of it changes
   * nothing, and a save of one detached while its unbinding is still pending
   * (the acquirer gave the same binding again) takes it back.
   */
  async save(binding: NewBinding): Promise<void> {
    await this.pool.query(
      `INSERT INTO bindings (payment_method_id, merchant_id, livemode, customer_id, binding_ciphertext) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (payment_method_id) DO UPDATE SET detached_at = NULL, unbind_due_at = NULL
       WHERE bindings.detached_at IS NOT NULL AND bindings.unbound_at IS NULL`,
      [binding.paymentMethodId, binding.merchantId, binding.livemode, binding.customerId, this.secrets.encrypt(binding.bindingId, bindingAad(binding.paymentMethodId))],
    );
  }

  /** The account's binding of `paymentMethodId`, if the card is still attached. */
  async usable(merchantId: string, livemode: boolean, paymentMethodId: string): Promise<UsableBinding | undefined> {
    const row = (
      await this.pool.query<{ customer_id: string; binding_ciphertext: string }>(
        'SELECT customer_id, binding_ciphertext FROM bindings WHERE payment_method_id = $1 AND merchant_id = $2 AND livemode = $3 AND detached_at IS NULL',
        [paymentMethodId, merchantId, livemode],
      )
    ).rows[0];
    if (!row) return undefined;
    return { paymentMethodId, customerId: row.customer_id, bindingId: await this.secrets.decrypt(row.binding_ciphertext, bindingAad(paymentMethodId)) };
  }

  /**
   * Marks the card detached (never charged again) and takes its unbinding
   * for `leaseSeconds` (the sweep tries again after that): the binding to
   * unbind, or undefined when there is none left (unbound already, or the
   * card was never bound here).
   */
  async detach(merchantId: string, livemode: boolean, paymentMethodId: string, leaseSeconds: number): Promise<DetachedBinding | undefined> {
    const rows = await this.pool.query<DetachedRow>(
      `UPDATE bindings SET detached_at = coalesce(detached_at, now()), unbind_due_at = now() + make_interval(secs => $4)
       WHERE payment_method_id = $1 AND merchant_id = $2 AND livemode = $3 AND unbound_at IS NULL
       RETURNING ${DETACHED_COLUMNS}`,
      [paymentMethodId, merchantId, livemode, leaseSeconds],
    );
    return rows.rows[0] && this.opened(rows.rows[0]);
  }

  /** Up to `limit` detached bindings whose unbinding is due, each taken for `leaseSeconds`. */
  async dueForUnbinding(limit: number, leaseSeconds: number): Promise<DetachedBinding[]> {
    const rows = await this.pool.query<DetachedRow>(UNBIND_DUE, [limit, leaseSeconds]);
    return Promise.all(rows.rows.map((row) => this.opened(row)));
  }

  /** The acquirer no longer binds the card. */
  async markUnbound(paymentMethodId: string): Promise<void> {
    await this.pool.query('UPDATE bindings SET unbound_at = now(), unbind_due_at = NULL WHERE payment_method_id = $1 AND unbound_at IS NULL', [paymentMethodId]);
  }

  private async opened(row: DetachedRow): Promise<DetachedBinding> {
    return { paymentMethodId: row.payment_method_id, merchantId: row.merchant_id, livemode: row.livemode, bindingId: await this.secrets.decrypt(row.binding_ciphertext, bindingAad(row.payment_method_id)) };
  }
}
