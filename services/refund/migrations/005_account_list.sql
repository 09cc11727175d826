-- GET /gateway/refunds/ and refunds.csv (D21): an account's refunds, newest first.
CREATE INDEX refunds_by_account ON refunds (merchant_id, livemode, created_at DESC, id DESC);
