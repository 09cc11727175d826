/**
 * Merchants' live Flouci applications (D26), as their owners saved them in the
 * dashboard's Settings: one per merchant (test mode always uses the sandbox's
 * Flouci). The private key is stored encrypted (D17), bound to its merchant,
 * and decrypted only to call Flouci. A change and the wallet.connected that
 * announces it commit together.
 */
import type { Envelope } from '@gateway/contracts';
import { withTransaction, type Pool } from '@gateway/db';
import { enqueue } from '@gateway/messaging';
import type { SecretBox } from '@gateway/secrets';

/** A merchant's live Flouci application, its private key decrypted: what a call to Flouci is made with. */
export interface WalletAccount {
  publicKey: string;
  privateKey: string;
  updatedAt: Date;
}

/** The keys an owner saves. */
export interface WalletKeys {
  publicKey: string;
  privateKey: string;
}

/**
 * The event announcing a change, made once the change is written (its row
 * locked): two changes of one merchant's keys are announced in the order they
 * committed, for those who keep the newest announcement.
 */
export type Announcement = () => Envelope;

/** What a private key's ciphertext is bound to: a copy in another row does not decrypt. */
const privateKeyAad = (merchantId: string) => `wallet_accounts.private_key_ciphertext:${merchantId}`;

export class WalletAccountRepository {
  constructor(
    private readonly pool: Pool,
    private readonly secrets: SecretBox,
  ) {}

  /** The merchant's live Flouci application with its private key decrypted, or undefined when none is saved. */
  async find(merchantId: string): Promise<WalletAccount | undefined> {
    const row = (
      await this.pool.query<{ public_key: string; private_key_ciphertext: string; updated_at: Date }>({
        name: 'wallet-account-find',
        text: 'SELECT public_key, private_key_ciphertext, updated_at FROM wallet_accounts WHERE merchant_id = $1',
        values: [merchantId],
      })
    ).rows[0];
    if (!row) return undefined;
    return { publicKey: row.public_key, privateKey: await this.secrets.decrypt(row.private_key_ciphertext, privateKeyAad(merchantId)), updatedAt: row.updated_at };
  }

  /** The public key and when the keys were saved, or undefined; the private key is not read. */
  async findSummary(merchantId: string): Promise<{ publicKey: string; updatedAt: Date } | undefined> {
    const row = (await this.pool.query<{ public_key: string; updated_at: Date }>('SELECT public_key, updated_at FROM wallet_accounts WHERE merchant_id = $1', [merchantId])).rows[0];
    return row && { publicKey: row.public_key, updatedAt: row.updated_at };
  }

  /** Saves the merchant's keys (replacing any), with the event `announce` makes; when they were saved. */
  async set(merchantId: string, keys: WalletKeys, announce: Announcement): Promise<Date> {
    return withTransaction(this.pool, async (tx) => {
      const saved = await tx.query<{ updated_at: Date }>(
        `INSERT INTO wallet_accounts (merchant_id, public_key, private_key_ciphertext) VALUES ($1, $2, $3)
         ON CONFLICT (merchant_id) DO UPDATE SET public_key = EXCLUDED.public_key, private_key_ciphertext = EXCLUDED.private_key_ciphertext, updated_at = now()
         RETURNING updated_at`,
        [merchantId, keys.publicKey, this.secrets.encrypt(keys.privateKey, privateKeyAad(merchantId))],
      );
      await enqueue(tx, [announce()]);
      return (saved.rows[0] as { updated_at: Date }).updated_at;
    });
  }

  /** Removes the merchant's keys, with the event `announce` makes; false (and no event) when none were saved. */
  async remove(merchantId: string, announce: Announcement): Promise<boolean> {
    return withTransaction(this.pool, async (tx) => {
      const removed = await tx.query('DELETE FROM wallet_accounts WHERE merchant_id = $1', [merchantId]);
      if (removed.rowCount !== 1) return false;
      await enqueue(tx, [announce()]);
      return true;
    });
  }
}
