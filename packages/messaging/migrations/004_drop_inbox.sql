-- The inbox (001) is no longer written: apply-once (src/apply-once.ts) makes a
-- redelivered change change nothing, keyed by the change itself. Its index goes with it.
DROP TABLE IF EXISTS inbox;
