/**
 * Secrets at rest (D17), with node:crypto alone: AES-256-GCM data keys, each
 * kept as a wrapped key, sealed by the key-encryption key from the environment
 * (SECRETS_KEK, and SECRETS_KEK_PREVIOUS during its rotation), kept in the
 * owning service's `data_keys` table; ciphertexts are versioned strings bound
 * to the table, column and row they belong to.
 */
import { fileURLToPath } from 'node:url';
import type { MigrationSource } from '@gateway/db';

export { kekId, SecretsError } from './cipher.js';
export { SecretBox } from './secret-box.js';
export { encryptPlaintextColumns, type PlaintextColumns } from './plaintext-columns.js';

/** The `data_keys` table of every service that keeps secrets, in its own schema. */
export const secretsMigrations: MigrationSource = {
  name: 'secrets',
  dir: fileURLToPath(new URL('../../migrations', import.meta.url)),
};
