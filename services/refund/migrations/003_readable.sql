-- Refunds are read back by merchants (D16): whether the acquirer confirmed
-- one at once (automated_refund), rather than an operator afterwards.
ALTER TABLE refunds ADD COLUMN automated boolean NOT NULL DEFAULT false;
UPDATE refunds SET automated = true WHERE status = 'SUCCEEDED' AND operation IS NOT NULL AND epg_error_message = '';
CREATE INDEX refunds_by_merchant_session ON refunds (merchant_id, livemode, session_id, created_at);
DROP INDEX refunds_by_session;
