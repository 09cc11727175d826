-- The operations queue counts stale PENDING refunds beside MANUAL ones at every
-- /metrics scrape (gateway_refunds_awaiting_operator): find them without a scan.
CREATE INDEX refunds_pending ON refunds (created_at) WHERE status = 'PENDING';
