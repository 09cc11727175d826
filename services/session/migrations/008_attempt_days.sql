-- How many payment attempts of each account succeeded and failed each
-- Africa/Tunis day, failures by code (D21: the dashboard's Home page shows a
-- success rate and the declines by reason over 30 days). Counted in the
-- statement that records an attempt's outcome (SessionRepository.resolveAttempt),
-- so session.stats reads a few rows a day instead of every attempt.
-- An attempt counts on the Tunis day it was made. `slot` spreads one account's
-- counts of a day over eight rows (by the attempt's id), so that concurrent
-- payments of one merchant do not all queue on the same row lock until their
-- commit; a read sums the slots.
CREATE TABLE attempt_days (
  merchant_id  text     NOT NULL,
  livemode     boolean  NOT NULL,
  day          date     NOT NULL,
  status       text     NOT NULL CHECK (status IN ('SUCCEEDED', 'FAILED')),
  -- '' for a success.
  failure_code text     NOT NULL,
  slot         smallint NOT NULL CHECK (slot BETWEEN 0 AND 7),
  attempts     integer  NOT NULL CHECK (attempts > 0),
  PRIMARY KEY (merchant_id, livemode, day, status, failure_code, slot)
);

-- The attempts resolved before this migration, counted once.
INSERT INTO attempt_days (merchant_id, livemode, day, status, failure_code, slot, attempts)
SELECT s.merchant_id, s.livemode, (a.created_at AT TIME ZONE 'Africa/Tunis')::date, a.status,
       CASE WHEN a.status = 'FAILED' THEN a.failure_code ELSE '' END, 0, count(*)
FROM attempts a JOIN sessions s ON s.id = a.session_id
WHERE a.status IN ('SUCCEEDED', 'FAILED')
GROUP BY 1, 2, 3, 4, 5;
