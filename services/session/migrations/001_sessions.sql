-- Payment sessions (INTERFACE 2.1). Amounts are numeric, never floating point:
-- amount and amount_refunded in TND (3 decimals); original_amount keeps the
-- requested currency's precision as given; rate has six decimals.
CREATE TABLE sessions (
  id                  text PRIMARY KEY,
  merchant_id         text        NOT NULL,
  livemode            boolean     NOT NULL,
  merchant_reference  text        NOT NULL,
  order_number        text        NOT NULL,
  order_id            text        NOT NULL DEFAULT '',
  amount              numeric(12,3) NOT NULL CHECK (amount > 0),
  original_amount     numeric     NOT NULL,
  original_currency   char(3)     NOT NULL,
  rate                numeric(18,6) NOT NULL,
  description         text        NOT NULL DEFAULT '',
  -- json, not jsonb: the merchant's items and metadata come back exactly as sent.
  items               json        NOT NULL DEFAULT '[]',
  metadata            json        NOT NULL DEFAULT '{}',
  buyer_first_name    text        NOT NULL,
  buyer_last_name     text        NOT NULL,
  buyer_email         text        NOT NULL,
  buyer_phone         text        NOT NULL DEFAULT '',
  return_url          text        NOT NULL DEFAULT '',
  cancel_url          text        NOT NULL DEFAULT '',
  webhook_url         text        NOT NULL DEFAULT '',
  max_attempts        smallint    NOT NULL,
  status              text        NOT NULL,
  expires_at          timestamptz NOT NULL,
  completed_at        timestamptz,
  created_at          timestamptz NOT NULL,
  -- The newest checkout link, shown as checkout_url.
  checkout_link_id    text        NOT NULL,
  checkout_token      text        NOT NULL,
  checkout_expires_at timestamptz NOT NULL,
  amount_refunded     numeric(12,3) NOT NULL DEFAULT 0,
  CONSTRAINT sessions_reference_unique UNIQUE (merchant_id, livemode, merchant_reference),
  CONSTRAINT sessions_order_number_unique UNIQUE (merchant_id, order_number)
);

-- Keyset pagination of a merchant's sessions in one mode, newest first.
CREATE INDEX sessions_listing ON sessions (merchant_id, livemode, created_at DESC, id DESC);

-- Every hosted-page link a session issued (D4 counts the unexpired ones).
CREATE TABLE checkout_links (
  id          text PRIMARY KEY,
  session_id  text        NOT NULL REFERENCES sessions (id),
  expires_at  timestamptz NOT NULL,
  created_at  timestamptz NOT NULL
);
CREATE INDEX checkout_links_by_session ON checkout_links (session_id, expires_at);

-- Per-merchant, per-mode exchange rates: TND value of one unit of currency.
CREATE TABLE exchange_rates (
  merchant_id text        NOT NULL,
  livemode    boolean     NOT NULL,
  currency    char(3)     NOT NULL,
  rate        numeric(18,6) NOT NULL CHECK (rate > 0),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (merchant_id, livemode, currency)
);
