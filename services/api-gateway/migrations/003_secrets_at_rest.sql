-- Test keys stay retrievable (D12, INTERFACE 5.3): encrypted beside their
-- hash. Live keys are never encrypted (NULL): shown once, hash only. Test
-- keys made before this column have no ciphertext (only a hash was kept) and
-- cannot be revealed; a new test key replaces one.
ALTER TABLE api_keys ADD COLUMN secret_ciphertext text;
ALTER TABLE api_keys ADD CONSTRAINT api_keys_live_never_encrypted CHECK (NOT livemode OR secret_ciphertext IS NULL);
