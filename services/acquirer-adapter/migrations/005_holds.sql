-- Two-phase orders (D22, ACQUIRER.md): a manual session's order is registered
-- with registerPreAuth.do and its approved payment is held (status
-- AUTHORIZED) until a deposit takes some or all of it (then APPROVED, with
-- the fee on captured_amount) or a reverse releases it. `hold` follows what
-- is done with the hold, once: HELD, then CAPTURING → CAPTURED (or back to
-- HELD when the acquirer refuses), or VOIDING → VOIDED (VOID_REFUSED when the
-- acquirer will not release it: an operator's case). An operation whose answer
-- never came is asked about again from hold_next_check_at. capture_id is the
-- session's claim the last capture was made for; ended_captures holds every
-- claim that ended without capturing, none of which is ever sent again.
ALTER TABLE orders
  ADD COLUMN capture_method     text NOT NULL DEFAULT 'automatic',
  ADD COLUMN hold               text,
  ADD COLUMN capture_id         text,
  ADD COLUMN ended_captures     text[] NOT NULL DEFAULT '{}',
  ADD COLUMN captured_amount    numeric(12,3),
  ADD COLUMN captured_at        timestamptz,
  ADD COLUMN hold_changed_at    timestamptz,
  ADD COLUMN hold_checks        integer NOT NULL DEFAULT 0,
  ADD COLUMN hold_next_check_at timestamptz,
  ADD CONSTRAINT orders_capture_method CHECK (capture_method IN ('automatic', 'manual')),
  ADD CONSTRAINT orders_hold CHECK (hold IN ('HELD', 'CAPTURING', 'CAPTURED', 'VOIDING', 'VOIDED', 'VOID_REFUSED')),
  ADD CONSTRAINT orders_captured_within_hold CHECK (captured_amount IS NULL OR (captured_amount > 0 AND captured_amount <= amount));

CREATE INDEX orders_hold_due ON orders (hold_next_check_at) WHERE hold IN ('CAPTURING', 'VOIDING');
