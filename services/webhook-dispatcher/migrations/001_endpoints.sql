-- Where each merchant receives webhooks in each mode, and the secret they are
-- signed with. The secret must be readable to sign (HMAC), so it is stored as
-- issued; the database role of this service is the only one that can read it.
CREATE TABLE endpoints (
  merchant_id text        NOT NULL,
  livemode    boolean     NOT NULL,
  url         text        NOT NULL DEFAULT '',
  secret      text        NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (merchant_id, livemode)
);
