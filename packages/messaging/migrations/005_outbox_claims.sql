-- A relay claims the rows it publishes until claimed_until (a lease) instead of
-- holding a transaction open while the broker confirms them: a round is then
-- one statement, which also deletes what the round before published. A row
-- whose relay died, or whose broker never confirmed, is claimable again once
-- its lease has lapsed. NULL: nobody has claimed it.
ALTER TABLE outbox ADD COLUMN claimed_until timestamptz;
