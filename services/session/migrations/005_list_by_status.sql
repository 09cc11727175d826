-- The session list filtered by status (issue 19). created[gte]/created[lte] are
-- ranges on sessions_listing and merchant_reference hits sessions_reference_unique,
-- but a status filter walked sessions_listing row by row: listing the few FAILED
-- sessions of a merchant with a million SUCCEEDED ones read them all. With status
-- after the account, a status filter is one index range in list order, cursors
-- and date bounds included. A status change already rewrites the row's index
-- entries (sessions_expiring's predicate names status), so this adds one entry write.
CREATE INDEX sessions_listing_by_status ON sessions (merchant_id, livemode, status, created_at DESC, id DESC);
