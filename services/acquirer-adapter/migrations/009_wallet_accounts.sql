-- Merchants' live Flouci applications (D26), as their owners saved them in the
-- dashboard's Settings: one per merchant. Test mode needs none: it always uses
-- the sandbox's Flouci. The private key is encrypted (D17), bound to its
-- merchant, and decrypted only to call Flouci; the public key is shown back.
CREATE TABLE wallet_accounts (
  merchant_id            text        PRIMARY KEY,
  public_key             text        NOT NULL,
  private_key_ciphertext text        NOT NULL,
  updated_at             timestamptz NOT NULL DEFAULT now()
);
