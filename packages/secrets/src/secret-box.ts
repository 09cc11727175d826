/**
 * A service's secrets at rest (D17): encrypts with its one active data key
 * (DEK), decrypts with whichever DEK a ciphertext names, and re-wraps its DEKs
 * under a new key-encryption key (KEK). DEKs live wrapped in the service's own
 * `data_keys` table and, unwrapped, in memory only: a decryption costs no
 * database round trip once the DEK is known.
 */
import { withTransaction, type Pool, type Queryable } from '@gateway/db';
import { decryptWith, encryptWith, kekId, newDataKey, newDataKeyId, parseCiphertext, SecretsError, unwrapDataKey, wrapDataKey } from './cipher.js';

/** The KEKs a service is given: the one that wraps, and during a rotation the one it replaces. */
export interface KeyEncryptionKeys {
  current: Buffer;
  previous?: Buffer | undefined;
}

/** What a re-wrap did: DEKs in the table, and how many were wrapped under another KEK and are now under the current one. */
export interface RewrapCounts {
  data_keys: number;
  rewrapped: number;
}

interface DataKeyRow {
  id: string;
  kek_id: string;
  wrapped_key: string;
  active: boolean;
}

/** Serialises creating the active DEK and re-wrapping, per schema (several services share a database). */
const lockDataKeys = (tx: Queryable) => tx.query(`SELECT pg_advisory_xact_lock(hashtext('data_keys:' || current_schema()))`);

export class SecretBox {
  /** Unwrapped DEKs by id; a promise so concurrent first uses of one DEK read it once. */
  private readonly dataKeys = new Map<string, Promise<Buffer>>();

  private constructor(
    private readonly pool: Pool,
    private readonly keks: ReadonlyMap<string, Buffer>,
    private readonly currentKekId: string,
    private readonly active: { id: string; key: Buffer },
  ) {}

  /**
   * Opens the box of the schema `pool` uses: creates the active DEK on the
   * first start (once, however many replicas start together) and unwraps
   * every DEK now, so a KEK missing for any of them stops the start, not a
   * later payment or webhook.
   */
  static async open(pool: Pool, keks: KeyEncryptionKeys): Promise<SecretBox> {
    const current = kekId(keks.current);
    const known = new Map<string, Buffer>([[current, keks.current]]);
    if (keks.previous) known.set(kekId(keks.previous), keks.previous);
    const rows = await withTransaction(pool, async (tx) => {
      await lockDataKeys(tx);
      const existing = await tx.query<DataKeyRow>('SELECT id, kek_id, wrapped_key, active FROM data_keys ORDER BY created_at');
      if (existing.rows.some((row) => row.active)) return existing.rows;
      const id = newDataKeyId();
      const created = await tx.query<DataKeyRow>(
        'INSERT INTO data_keys (id, kek_id, wrapped_key, active) VALUES ($1, $2, $3, true) RETURNING id, kek_id, wrapped_key, active',
        [id, current, wrapDataKey(keks.current, id, newDataKey())],
      );
      return [...existing.rows, ...created.rows];
    });
    const unknown = rows.filter((row) => !known.has(row.kek_id));
    if (unknown.length > 0) {
      const under = [...new Set(unknown.map((row) => row.kek_id))].join(', ');
      throw new SecretsError(
        `${unknown.length} data key(s) are wrapped under key-encryption key ${under}, which is neither SECRETS_KEK (${current})` +
          `${keks.previous ? ` nor SECRETS_KEK_PREVIOUS (${kekId(keks.previous)})` : ' and no SECRETS_KEK_PREVIOUS is set'}: ` +
          'give the key they were wrapped under as SECRETS_KEK_PREVIOUS and run `gateway-admin secrets rewrap` before removing it',
      );
    }
    const unwrapped = new Map(rows.map((row) => [row.id, unwrapDataKey(known.get(row.kek_id) as Buffer, row.id, row.wrapped_key)]));
    const activeRow = rows.find((row) => row.active) as DataKeyRow;
    const box = new SecretBox(pool, known, current, { id: activeRow.id, key: unwrapped.get(activeRow.id) as Buffer });
    for (const [id, key] of unwrapped) box.dataKeys.set(id, Promise.resolve(key));
    return box;
  }

  /** `plaintext` encrypted with the active DEK and bound to `aad` (what it protects: table, column and row). */
  encrypt(plaintext: string, aad: string): string {
    return encryptWith(this.active.id, this.active.key, plaintext, aad);
  }

  /** The plaintext of `ciphertext`; throws a SecretsError when it was bound to anything but `aad`, or altered. */
  async decrypt(ciphertext: string, aad: string): Promise<string> {
    return decryptWith(await this.dataKey(parseCiphertext(ciphertext).dataKeyId), ciphertext, aad);
  }

  /**
   * Wraps every DEK not yet under the current KEK under it (D17 rotation: run
   * once every replica has the new KEK as SECRETS_KEK and the old one as
   * SECRETS_KEK_PREVIOUS). Ciphertexts are untouched; running it again
   * changes nothing.
   */
  async rewrap(): Promise<RewrapCounts> {
    return withTransaction(this.pool, async (tx) => {
      await lockDataKeys(tx);
      const rows = (await tx.query<DataKeyRow>('SELECT id, kek_id, wrapped_key, active FROM data_keys FOR UPDATE')).rows;
      const current = this.keks.get(this.currentKekId) as Buffer;
      let rewrapped = 0;
      for (const row of rows) {
        if (row.kek_id === this.currentKekId) continue;
        const key = unwrapDataKey(this.kekFor(row), row.id, row.wrapped_key);
        await tx.query('UPDATE data_keys SET kek_id = $2, wrapped_key = $3, rewrapped_at = now() WHERE id = $1', [row.id, this.currentKekId, wrapDataKey(current, row.id, key)]);
        rewrapped += 1;
      }
      return { data_keys: rows.length, rewrapped };
    });
  }

  /** The unwrapped DEK `id`: from memory, else (a DEK made after this box opened) read once from the table. */
  private dataKey(id: string): Promise<Buffer> {
    let key = this.dataKeys.get(id);
    if (!key) {
      key = this.load(id);
      this.dataKeys.set(id, key);
      // A failed read is not remembered: the row may appear, or the KEK be given, later.
      key.catch(() => this.dataKeys.delete(id));
    }
    return key;
  }

  private async load(id: string): Promise<Buffer> {
    const row = (await this.pool.query<DataKeyRow>('SELECT id, kek_id, wrapped_key, active FROM data_keys WHERE id = $1', [id])).rows[0];
    if (!row) throw new SecretsError(`there is no data key ${id}`);
    return unwrapDataKey(this.kekFor(row), row.id, row.wrapped_key);
  }

  private kekFor(row: DataKeyRow): Buffer {
    const kek = this.keks.get(row.kek_id);
    if (!kek) throw new SecretsError(`data key ${row.id} is wrapped under key-encryption key ${row.kek_id}, which this service was not given`);
    return kek;
  }
}
