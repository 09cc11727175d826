-- D29: a link closed by its owner, its expiry or its last payment has its open sessions canceled once;
-- sessions_closed_at says it was done. The sweep looks only at links not yet done.
ALTER TABLE payment_links ADD COLUMN sessions_closed_at timestamptz;
CREATE INDEX payment_links_sessions_open ON payment_links (expires_at) WHERE sessions_closed_at IS NULL;
