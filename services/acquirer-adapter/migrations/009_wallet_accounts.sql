-- Merchants' live Flouci applications (D26), as their owners saved them in the
-- dashboard's Settings. Test mode needs none: it always uses the sandbox's
-- Flouci. The private key is encrypted (D17), bound to its merchant, and
-- decrypted only to call Flouci; the public key is shown back.
-- A merchant has at most one current application (retired_at NULL): new
-- payments are started with it, unless Flouci refused its keys (rejected_at).
-- Keys replaced or removed are retired, not deleted: the payments started with
-- them (orders.wallet_account_id) are still verified, captured, voided and
-- refunded with the application that made them.
CREATE TABLE wallet_accounts (
  id                     bigserial   PRIMARY KEY,
  merchant_id            text        NOT NULL,
  public_key             text        NOT NULL,
  private_key_ciphertext text        NOT NULL,
  updated_at             timestamptz NOT NULL DEFAULT now(),
  retired_at             timestamptz,
  rejected_at            timestamptz
);
CREATE UNIQUE INDEX wallet_accounts_current ON wallet_accounts (merchant_id) WHERE retired_at IS NULL;

-- The live application a wallet payment was started with.
ALTER TABLE orders ADD COLUMN wallet_account_id bigint REFERENCES wallet_accounts (id);
