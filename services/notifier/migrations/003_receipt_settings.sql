-- D20: a merchant turns buyers' receipts off per mode in the dashboard's
-- settings. No row: receipts are on. A receipt event of an account with
-- receipts off writes no mail.
CREATE TABLE receipt_settings (
  merchant_id      text        NOT NULL,
  livemode         boolean     NOT NULL,
  receipts_enabled boolean     NOT NULL,
  updated_at       timestamptz NOT NULL,
  PRIMARY KEY (merchant_id, livemode)
);
