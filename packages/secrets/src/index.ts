/**
 * Secrets at rest (D17): envelope encryption with node:crypto alone. AES-256-GCM
 * data keys, each wrapped by the key-encryption key from the environment
 * (SECRETS_KEK, and SECRETS_KEK_PREVIOUS during its rotation), kept in the
 * owning service's `data_keys` table; ciphertexts are versioned strings bound
 * to the table, column and row they belong to.
 */
export { kekId, SecretsError } from './cipher.js';
export { SecretBox, type KeyEncryptionKeys, type RewrapCounts } from './secret-box.js';
export { encryptPlaintextColumns, type PlaintextColumn, type PlaintextColumns } from './plaintext-columns.js';
