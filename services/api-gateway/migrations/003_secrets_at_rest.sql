-- D17: secrets at rest. Data keys (AES-256-GCM), each wrapped by the
-- key-encryption key from the environment; exactly one is active, the one
-- new secrets are encrypted with. wrapped_key opens only with the KEK named
-- by kek_id, and only for this row's id.
CREATE TABLE data_keys (
  id           text        PRIMARY KEY,
  kek_id       text        NOT NULL,
  wrapped_key  text        NOT NULL,
  active       boolean     NOT NULL DEFAULT false,
  created_at   timestamptz NOT NULL DEFAULT now(),
  rewrapped_at timestamptz
);
CREATE UNIQUE INDEX data_keys_one_active ON data_keys (active) WHERE active;

-- Test keys stay retrievable (D12, INTERFACE 5.3): encrypted beside their
-- hash. Live keys are never encrypted (NULL): shown once, hash only. Test
-- keys made before this column have no ciphertext (only a hash was kept) and
-- cannot be revealed; a new test key replaces one.
ALTER TABLE api_keys ADD COLUMN secret_ciphertext text;
ALTER TABLE api_keys ADD CONSTRAINT api_keys_live_never_encrypted CHECK (NOT livemode OR secret_ciphertext IS NULL);
