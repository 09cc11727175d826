-- A refund made with an Idempotency-Key is found again by it: a retry whose
-- first answer was lost (the gateway timed out, this service restarted)
-- gets that refund's outcome instead of a second refund.
ALTER TABLE refunds ADD COLUMN idempotency_key text;
CREATE UNIQUE INDEX refunds_idempotency ON refunds (merchant_id, livemode, idempotency_key) WHERE idempotency_key IS NOT NULL;
