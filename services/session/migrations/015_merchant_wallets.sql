-- Whether each merchant's live Flouci application is connected (D26), as the
-- acquirer-adapter announced it (wallet.connected): a live session's hosted
-- page offers Flouci only then (a test one always does, with the sandbox's).
-- A merchant with no row never connected one. `changed_at` is the announcing
-- event's time: an announcement older than the row's changes nothing.
CREATE TABLE merchant_wallets (
  merchant_id text        PRIMARY KEY,
  flouci_live boolean     NOT NULL,
  changed_at  timestamptz NOT NULL
);
