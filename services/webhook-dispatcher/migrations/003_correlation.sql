-- The correlation id of the work that emitted the event (a payment, an API
-- call), so each delivery's log lines can be followed back to it.
ALTER TABLE events ADD COLUMN correlation_id text NOT NULL DEFAULT '';
