-- Merchant accounts, their API keys and their rate-limit overrides.
CREATE TABLE merchants (
  id              text PRIMARY KEY,
  name            text        NOT NULL,
  order_prefix    text        NOT NULL CHECK (order_prefix ~ '^[A-Z0-9]{1,3}$'),
  status          text        NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'suspended')),
  kyb_approved_at timestamptz,
  created_at      timestamptz NOT NULL DEFAULT now()
);

-- Secret keys are stored only as SHA-256 hashes (D12); `hint` is what a
-- dashboard may show (prefix and last four characters).
CREATE TABLE api_keys (
  id          text PRIMARY KEY,
  merchant_id text        NOT NULL REFERENCES merchants (id),
  livemode    boolean     NOT NULL,
  key_hash    bytea       NOT NULL UNIQUE,
  hint        text        NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  revoked_at  timestamptz
);
CREATE INDEX api_keys_by_merchant ON api_keys (merchant_id);

-- Per-merchant, per-mode overrides of the three budgets (requests per second);
-- NULL keeps the default of INTERFACE 8.
CREATE TABLE rate_limits (
  merchant_id  text    NOT NULL REFERENCES merchants (id),
  livemode     boolean NOT NULL,
  account_rps  integer CHECK (account_rps > 0),
  create_rps   integer CHECK (create_rps > 0),
  refund_rps   integer CHECK (refund_rps > 0),
  PRIMARY KEY (merchant_id, livemode)
);
