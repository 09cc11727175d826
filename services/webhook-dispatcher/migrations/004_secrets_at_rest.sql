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

-- The signing secrets, encrypted. The service encrypts the clear columns
-- secret and previous_secret into these as it starts, then drops them (SQL
-- cannot encrypt: it does not hold the KEK); secret_ciphertext becomes NOT
-- NULL then.
ALTER TABLE endpoints
  ADD COLUMN secret_ciphertext          text,
  ADD COLUMN previous_secret_ciphertext text;
