-- The refunds a session counts in amount_refunded (D2, D16), one row each, so
-- that the refund service's command before it answers and the refund events
-- after it move the total once per refund whatever their order. `counted`
-- goes from true to false when an operator fails a refund held for them, and
-- never back: a late refund.created cannot count a failed refund again.
CREATE TABLE session_refunds (
  refund_id   text          PRIMARY KEY,
  session_id  text          NOT NULL REFERENCES sessions (id),
  amount      numeric(12,3) NOT NULL CHECK (amount > 0),
  counted     boolean       NOT NULL,
  recorded_at timestamptz   NOT NULL DEFAULT now()
);
CREATE INDEX session_refunds_by_session ON session_refunds (session_id);
