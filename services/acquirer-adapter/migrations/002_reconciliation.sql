-- Reconciliation: an order the adapter could not settle (STARTED when its
-- replica died, CHALLENGED when the buyer never came back from 3-D Secure,
-- UNKNOWN when the acquirer did not answer) is asked about at the acquirer
-- by its order number, with backoff, until its outcome is known.
-- next_check_at: when the sweep next looks at it (the write that leaves an
-- order unresolved sets it; the sweep's claim pushes it on, as a lease).
-- The default makes rows written by an older replica during a rolling
-- update due at once: asking early is harmless, as an order is only given
-- up on once it has been left untouched long enough.
-- checks: how many times it was asked about since it last changed (backoff).
ALTER TABLE orders
  ADD COLUMN next_check_at timestamptz NOT NULL DEFAULT now(),
  ADD COLUMN checks        integer     NOT NULL DEFAULT 0;

-- The sweep's query; replaces the index on updated_at, which nothing reads.
CREATE INDEX orders_due ON orders (next_check_at) WHERE status IN ('STARTED', 'CHALLENGED', 'UNKNOWN');
DROP INDEX orders_unresolved;
