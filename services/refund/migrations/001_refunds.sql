-- Every captured payment, as payment.approved announced it, with what is
-- held against it: refunds confirmed, refunds waiting for an operator, and
-- refunds whose acquirer step is under way. A refund reserves its amount in
-- the same statement that checks it fits, so concurrent refunds can never
-- add up to more than was captured.
CREATE TABLE payments (
  attempt_id  text          PRIMARY KEY,
  session_id  text          NOT NULL UNIQUE,
  merchant_id text          NOT NULL,
  livemode    boolean       NOT NULL,
  captured    numeric(12,3) NOT NULL CHECK (captured > 0),
  held        numeric(12,3) NOT NULL DEFAULT 0,
  created_at  timestamptz   NOT NULL DEFAULT now(),
  CONSTRAINT payments_never_over CHECK (held >= 0 AND held <= captured)
);

-- PENDING: reserved, acquirer step under way. SUCCEEDED: confirmed.
-- MANUAL: held as refunded, waiting for an operator (automated_refund false).
-- FAILED: nothing refunded; its amount is no longer held.
CREATE TABLE refunds (
  id                text          PRIMARY KEY,
  session_id        text          NOT NULL,
  attempt_id        text          NOT NULL REFERENCES payments (attempt_id),
  merchant_id       text          NOT NULL,
  livemode          boolean       NOT NULL,
  amount            numeric(12,3) NOT NULL CHECK (amount > 0),
  refund_type       text          NOT NULL CHECK (refund_type IN ('FULL', 'PARTIAL')),
  reason            text          NOT NULL,
  metadata          json          NOT NULL DEFAULT '{}',
  status            text          NOT NULL CHECK (status IN ('PENDING', 'SUCCEEDED', 'MANUAL', 'FAILED')),
  operation         text,
  epg_error_message text          NOT NULL DEFAULT '',
  created_at        timestamptz   NOT NULL DEFAULT now(),
  resolved_at       timestamptz
);
CREATE INDEX refunds_by_session ON refunds (session_id);
CREATE INDEX refunds_manual ON refunds (created_at) WHERE status = 'MANUAL';
