-- Authorize now, capture later (D22). A manual session's approved payment is
-- held (AUTHORIZED) until captured, canceled or lapsed at hold_expires_at
-- (authorized_at plus AUTHORIZATION_TTL_SECONDS as it was then). While a capture is
-- under way at the acquirer, capturing_amount says how much, so a second
-- capture, a cancel and the lapse sweep all leave the session alone; a capture
-- left so (its answer lost) is asked about again from capture_next_check_at.
-- capture_id names the claim: a capture that failed releases only its own.
ALTER TABLE sessions
  ADD COLUMN capture_method        text NOT NULL DEFAULT 'automatic',
  ADD COLUMN amount_authorized     numeric(12,3),
  ADD COLUMN authorized_at         timestamptz,
  ADD COLUMN hold_expires_at       timestamptz,
  ADD COLUMN amount_captured       numeric(12,3),
  ADD COLUMN capturing_amount      numeric(12,3),
  ADD COLUMN capture_id            text,
  ADD COLUMN capture_key           text,
  ADD COLUMN capture_checks        integer NOT NULL DEFAULT 0,
  ADD COLUMN capture_next_check_at timestamptz,
  ADD CONSTRAINT sessions_capture_method CHECK (capture_method IN ('automatic', 'manual')),
  ADD CONSTRAINT sessions_capture_within_hold CHECK (amount_captured IS NULL OR amount_captured <= amount_authorized);

CREATE INDEX sessions_holds_lapsing ON sessions (hold_expires_at) WHERE status = 'AUTHORIZED';
