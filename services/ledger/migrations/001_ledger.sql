-- D21: every money movement of a merchant and mode, written once from the
-- event that announced it (unique on what moved it: a payment's session, a
-- refund), never changed afterwards. day is the Africa/Tunis date of
-- created_at, the day the daily report counts it on.
CREATE TABLE balance_transactions (
  id           text          PRIMARY KEY,
  merchant_id  text          NOT NULL,
  livemode     boolean       NOT NULL,
  type         text          NOT NULL CHECK (type IN ('payment', 'refund', 'refund_reversal')),
  session_id   text          NOT NULL,
  source       text          NOT NULL,
  amount       numeric(12,3) NOT NULL,
  fee          numeric(12,3) NOT NULL,
  net          numeric(12,3) NOT NULL,
  created_at   timestamptz   NOT NULL,
  day          date          NOT NULL,
  available_on date          NOT NULL,
  CONSTRAINT balance_transactions_once UNIQUE (type, source),
  CONSTRAINT balance_transactions_net CHECK (net = amount - fee),
  CONSTRAINT balance_transactions_sign CHECK ((type = 'refund') = (amount < 0))
);
CREATE INDEX balance_transactions_newest ON balance_transactions (merchant_id, livemode, created_at DESC, id DESC);
CREATE INDEX balance_transactions_by_session ON balance_transactions (merchant_id, livemode, session_id);

-- The sums of each Africa/Tunis day's transactions, kept in the transaction
-- that writes each one: the daily report reads one row a day, never the entries.
CREATE TABLE daily_totals (
  merchant_id    text          NOT NULL,
  livemode       boolean       NOT NULL,
  day            date          NOT NULL,
  payments_count integer       NOT NULL DEFAULT 0,
  gross          numeric(18,3) NOT NULL DEFAULT 0,
  fees           numeric(18,3) NOT NULL DEFAULT 0,
  refunds        numeric(18,3) NOT NULL DEFAULT 0,
  net            numeric(18,3) NOT NULL DEFAULT 0,
  PRIMARY KEY (merchant_id, livemode, day)
);

-- Net sums by the date they become available: the balance reads these.
CREATE TABLE available_totals (
  merchant_id  text          NOT NULL,
  livemode     boolean       NOT NULL,
  available_on date          NOT NULL,
  net          numeric(18,3) NOT NULL DEFAULT 0,
  PRIMARY KEY (merchant_id, livemode, available_on)
);
