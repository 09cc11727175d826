-- D19: a link that may be paid max_payments times is never paid more. The
-- sessions made through such a link are known here, and a session holds a
-- slot of its link while a payment attempt of it is under way (attempt_id
-- set), from the moment the buyer sends the card until the attempt fails (the
-- slot is given back) or the session succeeds (the slot becomes one of
-- payments_count). An attempt starts only with a slot: payments_count plus the
-- slots held never exceeds max_payments. A slot whose attempt outlived the
-- payment step's deadline is checked with the session service before anyone
-- else may have it, so a buyer who walks away never blocks the link for ever.
CREATE TABLE payment_link_sessions (
  session_id        text        PRIMARY KEY,
  link_id           text        NOT NULL REFERENCES payment_links (id),
  -- The attempt holding the link's slot, the checkout link it was started
  -- with (to look at the session), when it took the slot and when it was last
  -- found still paying.
  attempt_id        text,
  checkout_link_id  text,
  held_at           timestamptz,
  checked_at        timestamptz,
  CONSTRAINT payment_link_sessions_hold CHECK ((attempt_id IS NULL) = (held_at IS NULL) AND (attempt_id IS NULL) = (checkout_link_id IS NULL))
);

-- The slots a link's sessions hold, counted under the link's row lock.
CREATE INDEX payment_link_sessions_held ON payment_link_sessions (link_id) WHERE attempt_id IS NOT NULL;
