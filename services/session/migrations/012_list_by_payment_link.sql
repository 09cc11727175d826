-- The dashboard's list of the payments made through one payment link (D19): one
-- index range in list order, cursors included, rather than a walk of the
-- account's sessions. Only sessions made through a link have an entry.
CREATE INDEX sessions_listing_by_payment_link ON sessions (merchant_id, livemode, payment_link, created_at DESC, id DESC) WHERE payment_link IS NOT NULL;
