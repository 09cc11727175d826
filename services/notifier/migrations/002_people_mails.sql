-- D20: mails to the people of the dashboard and the console, beside the
-- buyers' receipts: an invitation with its setup link, a password reset link,
-- and the owners' notices (a webhook endpoint disabled, a pending refund an
-- operator resolved). An operator's reset belongs to no merchant.
ALTER TABLE mails DROP CONSTRAINT mails_kind_check;
ALTER TABLE mails ADD CONSTRAINT mails_kind_check CHECK (kind IN (
  'payment_receipt', 'refund_receipt',
  'invitation', 'password_reset', 'endpoint_disabled_notice', 'refund_resolved_notice'
));
ALTER TABLE mails ALTER COLUMN merchant_id DROP NOT NULL;
