-- Refunds at the acquirer (D10): one operation per refund, whatever the
-- retries. The row is written before the acquirer is called, keyed on the
-- refund service's refund id, so a repeated command finds it and calls
-- nothing. STARTED: recorded, the acquirer's answer not yet (or never:
-- the replica died mid-call). REFUNDED, REFUSED (definitive, nothing
-- refunded) and UNCONFIRMED (an operator must find out) are final; a
-- refusal or an unconfirmed outcome decided before any call is recorded
-- the same way, so the same refund id always gets the same answer.
-- message: the acquirer's words (or ours) when the outcome is not REFUNDED.
CREATE TABLE refund_operations (
  refund_id   text          PRIMARY KEY,
  attempt_id  text          NOT NULL,
  amount      numeric(12,3) NOT NULL CHECK (amount > 0),
  operation   text          NOT NULL CHECK (operation IN ('reverse', 'refund')),
  status      text          NOT NULL CHECK (status IN ('STARTED', 'REFUNDED', 'REFUSED', 'UNCONFIRMED')),
  message     text          NOT NULL DEFAULT '',
  created_at  timestamptz   NOT NULL DEFAULT now(),
  updated_at  timestamptz   NOT NULL DEFAULT now()
);
-- An attempt's refunds, for operators following one up.
CREATE INDEX refund_operations_attempt ON refund_operations (attempt_id);
