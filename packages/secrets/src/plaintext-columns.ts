/**
 * The data migration of secrets stored in clear before D17. SQL migrations
 * cannot encrypt, and the migration jobs are given no KEK (only the services
 * that use the secrets hold it), so each owning service runs this as it
 * starts, before it takes any work: every clear value is encrypted into
 * its ciphertext column, then the clear columns are dropped, so no clear copy
 * stays readable (the old row versions wait in the table's pages for VACUUM;
 * no query or dump shows them).
 */
import { withTransaction, type Pool } from '@gateway/db';
import type { SecretBox } from './secret-box.js';

interface PlaintextColumn {
  /** The clear column, dropped once its values are encrypted. */
  plain: string;
  /** The column that holds its ciphertext from now on. */
  cipher: string;
  /** Whether the ciphertext column may be NULL (the clear one was nullable). */
  nullable?: boolean;
  /** What the ciphertext of one row is bound to (the same binding the repository uses). */
  aad: (row: Record<string, unknown>) => string;
}

export interface PlaintextColumns {
  table: string;
  /** The columns that identify a row: its primary key. */
  key: readonly string[];
  columns: readonly PlaintextColumn[];
}

const ident = (name: string) => {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unexpected identifier ${name}`);
  return `"${name}"`;
};

/**
 * Encrypts the clear columns of `spec.table`, when they are still there, and
 * drops them; returns how many rows it encrypted. One transaction under an
 * advisory lock: replicas starting together wait for the first, then find the
 * clear columns gone and do nothing. The tables it serves hold one row per
 * merchant and mode, so one transaction stays short.
 */
export async function encryptPlaintextColumns(pool: Pool, box: SecretBox, spec: PlaintextColumns): Promise<number> {
  return withTransaction(pool, async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('encrypt-plaintext:' || current_schema() || '.' || $1))`, [spec.table]);
    const present = await tx.query<{ column_name: string }>(
      'SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 AND column_name = ANY($2::text[])',
      [spec.table, spec.columns.map((column) => column.plain)],
    );
    const columns = spec.columns.filter((column) => present.rows.some((row) => row.column_name === column.plain));
    if (columns.length === 0) return 0;
    const table = ident(spec.table);
    const selected = [...spec.key, ...columns.map((column) => column.plain)].map(ident).join(', ');
    const anyClear = columns.map((column) => `${ident(column.plain)} IS NOT NULL`).join(' OR ');
    const rows = (await tx.query<Record<string, unknown>>(`SELECT ${selected} FROM ${table} WHERE ${anyClear}`)).rows;
    const sets = columns.map((column, i) => `${ident(column.cipher)} = $${i + 1}`).join(', ');
    const where = spec.key.map((name, i) => `${ident(name)} = $${columns.length + i + 1}`).join(' AND ');
    for (const row of rows) {
      const ciphertexts = columns.map((column) => {
        const clear = row[column.plain];
        return clear === null || clear === undefined ? null : box.encrypt(String(clear), column.aad(row));
      });
      await tx.query(`UPDATE ${table} SET ${sets} WHERE ${where}`, [...ciphertexts, ...spec.key.map((name) => row[name])]);
    }
    const drops = columns.map((column) => `DROP COLUMN ${ident(column.plain)}`);
    const notNull = columns.filter((column) => !column.nullable).map((column) => `ALTER COLUMN ${ident(column.cipher)} SET NOT NULL`);
    await tx.query(`ALTER TABLE ${table} ${[...drops, ...notNull].join(', ')}`);
    return rows.length;
  });
}
