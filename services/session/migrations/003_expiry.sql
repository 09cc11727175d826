-- The expiry sweeps. A session past expires_at while CREATED or PENDING is
-- recorded EXPIRED (session.expired); a link that lapses while its session
-- is still payable is announced (checkout.session.expired), once.
ALTER TABLE checkout_links ADD COLUMN lapse_handled boolean NOT NULL DEFAULT false;

CREATE INDEX sessions_expiring ON sessions (expires_at) WHERE status IN ('CREATED', 'PENDING');
CREATE INDEX checkout_links_lapsing ON checkout_links (expires_at) WHERE NOT lapse_handled;
