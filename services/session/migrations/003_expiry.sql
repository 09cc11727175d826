-- The time-driven sweeps. A session past expires_at while CREATED or PENDING is
-- recorded EXPIRED (session.expired); a link that lapses while its session
-- is still payable is announced (checkout.session.expired), once.
ALTER TABLE checkout_links ADD COLUMN lapse_handled boolean NOT NULL DEFAULT false;

CREATE INDEX sessions_expiring ON sessions (expires_at) WHERE status IN ('CREATED', 'PENDING');
CREATE INDEX checkout_links_lapsing ON checkout_links (expires_at) WHERE NOT lapse_handled;

-- An attempt left PROCESSING long past any payment step is asked about at the
-- acquirer adapter, with backoff, until its outcome is known.
ALTER TABLE attempts
  ADD COLUMN checks        integer     NOT NULL DEFAULT 0,
  ADD COLUMN next_check_at timestamptz;
CREATE INDEX attempts_processing ON attempts (created_at) WHERE status = 'PROCESSING';
