-- Payment attempts as the session sees them (INTERFACE 2.3), and what the
-- session keeps of them: how many were made and why the last one failed.
ALTER TABLE sessions
  ADD COLUMN merchant_name        text     NOT NULL DEFAULT '',
  ADD COLUMN attempts_count       smallint NOT NULL DEFAULT 0,
  ADD COLUMN last_failure_code    text     NOT NULL DEFAULT '',
  ADD COLUMN last_failure_message text     NOT NULL DEFAULT '';

CREATE TABLE attempts (
  id              text PRIMARY KEY,
  session_id      text        NOT NULL REFERENCES sessions (id),
  attempt_number  smallint    NOT NULL,
  status          text        NOT NULL,
  card_brand      text        NOT NULL DEFAULT '',
  card_last_four  text        NOT NULL DEFAULT '',
  card_country    text        NOT NULL DEFAULT '',
  failure_code    text        NOT NULL DEFAULT '',
  failure_message text        NOT NULL DEFAULT '',
  -- Known once the payment is approved.
  fee_amount      numeric(12,3),
  net_amount      numeric(12,3),
  created_at      timestamptz NOT NULL,
  completed_at    timestamptz,
  CONSTRAINT attempts_number_unique UNIQUE (session_id, attempt_number),
  CONSTRAINT attempts_fee_within_amount CHECK (fee_amount IS NULL OR (fee_amount >= 0 AND net_amount >= 0))
);
