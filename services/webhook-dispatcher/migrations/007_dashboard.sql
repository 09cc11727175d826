-- The dashboard's webhook log (D14). The start of the merchant's answer to
-- each attempt, as received: at most 4 KiB of it, decoded as text; null when
-- no response came (refused, timed out, connection lost) and for attempts
-- made before this column existed.
ALTER TABLE deliveries ADD COLUMN response_body text;

-- The log's "failed only" filter: one index range in list order (newest
-- first by seq), cursors included, rather than a walk of every attempt of the
-- account through deliveries_account to find the few failed ones.
CREATE INDEX deliveries_account_status ON deliveries (merchant_id, livemode, status, seq);
