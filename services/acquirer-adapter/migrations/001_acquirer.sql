-- Acquirer terminals per merchant (live mode; test mode uses the built-in
-- sandbox terminal), merchant pricing, and one acquirer order per payment
-- attempt.
CREATE TABLE terminals (
  merchant_id  text        NOT NULL,
  livemode     boolean     NOT NULL,
  user_name    text        NOT NULL,
  password     text        NOT NULL,
  active       boolean     NOT NULL,
  -- Set when the acquirer refused these credentials; cleared by `terminal set`.
  rejected_at  timestamptz,
  updated_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (merchant_id, livemode)
);

CREATE TABLE pricing (
  merchant_id text PRIMARY KEY,
  percent     numeric(7,4)  NOT NULL CHECK (percent >= 0 AND percent <= 100),
  fixed       numeric(12,3) NOT NULL CHECK (fixed >= 0),
  updated_at  timestamptz   NOT NULL DEFAULT now()
);

-- STARTED: recorded before the acquirer is called. CHALLENGED: waiting for
-- 3-D Secure. UNKNOWN: the acquirer did not answer; reconciliation asks again.
-- APPROVED and DECLINED are final. No card number is ever stored: only the
-- brand and the last four digits.
CREATE TABLE orders (
  attempt_id        text PRIMARY KEY,
  session_id        text          NOT NULL,
  merchant_id       text          NOT NULL,
  livemode          boolean       NOT NULL,
  order_number      text          NOT NULL,
  acquirer_order_id text,
  amount            numeric(12,3) NOT NULL CHECK (amount > 0),
  status            text          NOT NULL,
  card_brand        text          NOT NULL,
  card_last_four    text          NOT NULL,
  failure_code      text          NOT NULL DEFAULT '',
  failure_message   text          NOT NULL DEFAULT '',
  fee_amount        numeric(12,3),
  net_amount        numeric(12,3),
  created_at        timestamptz   NOT NULL DEFAULT now(),
  updated_at        timestamptz   NOT NULL DEFAULT now(),
  CONSTRAINT orders_number_unique UNIQUE (merchant_id, livemode, order_number)
);
CREATE INDEX orders_unresolved ON orders (updated_at) WHERE status IN ('STARTED', 'CHALLENGED', 'UNKNOWN');
