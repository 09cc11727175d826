-- The dashboard's webhook log (D14). The start of the merchant's answer to
-- each attempt, as received: at most 4 KiB of it, decoded as text; null when
-- no response came (refused, timed out, connection lost) and for attempts
-- made before this column existed.
ALTER TABLE deliveries ADD COLUMN response_body text;

-- The log's "failed only" filter: one index range in list order (newest
-- first by seq), cursors included, rather than a walk of every attempt of the
-- account through deliveries_account to find the few failed ones.
CREATE INDEX deliveries_account_status ON deliveries (merchant_id, livemode, status, seq);

-- seq orders attempts only within an account or a session, where the indexes
-- above and deliveries_session carry it; identity values are unique by their
-- generation. The global unique index on it let the planner answer an
-- account's list by walking every account's attempts newest first and
-- filtering (seen: 20,000 rows of another account read for one page when the
-- account had most of the table but none of its newest rows), and cost a
-- write on every attempt.
ALTER TABLE deliveries DROP CONSTRAINT deliveries_seq_key;
