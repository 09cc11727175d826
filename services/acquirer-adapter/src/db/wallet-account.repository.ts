/**
 * Merchants' live Flouci applications (D26), as their owners saved them in the
 * dashboard's Settings (test mode always uses the sandbox's Flouci). The
 * private key is stored encrypted (D17), bound to its merchant, and decrypted
 * only to call Flouci. A merchant's current application starts its new
 * payments; saving keys again or removing them retires it, never deletes it,
 * so the payments it started are still verified, captured, voided and
 * refunded with it (migration 009). A change and the wallet.connected that
 * announces it commit together.
 */
import type { Envelope } from '@gateway/contracts';
import { withTransaction, type Pool } from '@gateway/db';
import { enqueue } from '@gateway/messaging';
import type { SecretBox } from '@gateway/secrets';

/** A merchant's live Flouci application with its private key decrypted: what a call to Flouci is made with. */
export interface WalletAccount {
  /** The application's row: orders started with it name it. */
  id: string;
  publicKey: string;
  privateKey: string;
  updatedAt: Date;
}

/** The keys an owner saves. */
export interface WalletKeys {
  publicKey: string;
  privateKey: string;
}

/** What Settings shows of the current application: never the private key. */
export interface WalletAccountSummary {
  publicKey: string;
  updatedAt: Date;
  /** Flouci refused its keys on a payment: no payment is started with it until keys are saved again. */
  rejected: boolean;
}

/**
 * The event announcing a change, made once the change is written (its row
 * locked): two changes of one merchant's keys are announced in the order they
 * committed, for those who keep the newest announcement.
 */
export type Announcement = () => Envelope;

/**
 * Changes of one merchant's keys one after another: two saves at once would
 * each retire what the other had not yet written, and the second insert would
 * meet the one-current-application index.
 */
async function lockMerchant(tx: Pick<Pool, 'query'>, merchantId: string): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`wallet_accounts:${merchantId}`]);
}

/** What a private key's ciphertext is bound to: a copy in another merchant's row does not decrypt. */
const privateKeyAad = (merchantId: string) => `wallet_accounts.private_key_ciphertext:${merchantId}`;

interface AccountRow {
  id: string;
  public_key: string;
  private_key_ciphertext: string;
  updated_at: Date;
}

export class WalletAccountRepository {
  constructor(
    private readonly pool: Pool,
    private readonly secrets: SecretBox,
  ) {}

  /** The application a new payment of the merchant's is started with: its current one, unless Flouci refused it; undefined otherwise. */
  async current(merchantId: string): Promise<WalletAccount | undefined> {
    const result = await this.pool.query<AccountRow>({
      name: 'wallet-account-current',
      text: 'SELECT id, public_key, private_key_ciphertext, updated_at FROM wallet_accounts WHERE merchant_id = $1 AND retired_at IS NULL AND rejected_at IS NULL',
      values: [merchantId],
    });
    return this.opened(merchantId, result.rows[0]);
  }

  /** The application `id` of the merchant's, retired or refused alike: the one a payment was started with. */
  async byId(merchantId: string, id: string): Promise<WalletAccount | undefined> {
    const result = await this.pool.query<AccountRow>({
      name: 'wallet-account-by-id',
      text: 'SELECT id, public_key, private_key_ciphertext, updated_at FROM wallet_accounts WHERE id = $1 AND merchant_id = $2',
      values: [id, merchantId],
    });
    return this.opened(merchantId, result.rows[0]);
  }

  /** The current application's public key, when it was saved and whether Flouci refused it; the private key is not read. */
  async findSummary(merchantId: string): Promise<WalletAccountSummary | undefined> {
    const row = (
      await this.pool.query<{ public_key: string; updated_at: Date; rejected: boolean }>(
        'SELECT public_key, updated_at, rejected_at IS NOT NULL AS rejected FROM wallet_accounts WHERE merchant_id = $1 AND retired_at IS NULL',
        [merchantId],
      )
    ).rows[0];
    return row && { publicKey: row.public_key, updatedAt: row.updated_at, rejected: row.rejected };
  }

  /** Saves the merchant's keys as its current application (retiring the one before), with the event `announce` makes; when they were saved. */
  async set(merchantId: string, keys: WalletKeys, announce: Announcement): Promise<Date> {
    return withTransaction(this.pool, async (tx) => {
      await lockMerchant(tx, merchantId);
      await tx.query('UPDATE wallet_accounts SET retired_at = now() WHERE merchant_id = $1 AND retired_at IS NULL', [merchantId]);
      const saved = await tx.query<{ updated_at: Date }>(
        'INSERT INTO wallet_accounts (merchant_id, public_key, private_key_ciphertext) VALUES ($1, $2, $3) RETURNING updated_at',
        [merchantId, keys.publicKey, this.secrets.encrypt(keys.privateKey, privateKeyAad(merchantId))],
      );
      await enqueue(tx, [announce()]);
      return (saved.rows[0] as { updated_at: Date }).updated_at;
    });
  }

  /** Retires the merchant's current application, with the event `announce` makes; false (and no event) when it had none. */
  async remove(merchantId: string, announce: Announcement): Promise<boolean> {
    return withTransaction(this.pool, async (tx) => {
      await lockMerchant(tx, merchantId);
      const removed = await tx.query('UPDATE wallet_accounts SET retired_at = now() WHERE merchant_id = $1 AND retired_at IS NULL', [merchantId]);
      if (removed.rowCount !== 1) return false;
      await enqueue(tx, [announce()]);
      return true;
    });
  }

  /**
   * Flouci refused application `id`'s keys: no payment is started with it any
   * more (the page stops offering Flouci, by the event `announce` makes) until
   * an owner saves keys again. False when it was refused or retired already.
   */
  async markRejected(id: string, announce: Announcement): Promise<boolean> {
    return withTransaction(this.pool, async (tx) => {
      const rejected = await tx.query('UPDATE wallet_accounts SET rejected_at = now() WHERE id = $1 AND rejected_at IS NULL AND retired_at IS NULL', [id]);
      if (rejected.rowCount !== 1) return false;
      await enqueue(tx, [announce()]);
      return true;
    });
  }

  private async opened(merchantId: string, row: AccountRow | undefined): Promise<WalletAccount | undefined> {
    if (!row) return undefined;
    return { id: row.id, publicKey: row.public_key, privateKey: await this.secrets.decrypt(row.private_key_ciphertext, privateKeyAad(merchantId)), updatedAt: row.updated_at };
  }
}
