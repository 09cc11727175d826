-- D20: the mail outbox. One row per mail, written once from the event that
-- asks for it (unique on kind and source: a payment receipt's session, a
-- refund receipt's refund), whatever the event's deliveries; the sender takes
-- the due ones (FOR UPDATE SKIP LOCKED, so replicas share them), sends them
-- over SMTP and marks them sent, or puts them off with a growing delay.
CREATE TABLE mails (
  id              text        PRIMARY KEY,
  kind            text        NOT NULL CHECK (kind IN ('payment_receipt', 'refund_receipt')),
  source          text        NOT NULL,
  merchant_id     text        NOT NULL,
  livemode        boolean     NOT NULL,
  language        text        NOT NULL CHECK (language IN ('fr', 'en', 'ar')),
  recipient       text        NOT NULL,
  recipient_name  text        NOT NULL,
  subject         text        NOT NULL,
  text_body       text        NOT NULL,
  html_body       text        NOT NULL,
  headers         jsonb       NOT NULL DEFAULT '{}',
  status          text        NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
  attempts        integer     NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL,
  last_error      text        NOT NULL DEFAULT '',
  message_id      text        NOT NULL DEFAULT '',
  created_at      timestamptz NOT NULL,
  sent_at         timestamptz,
  CONSTRAINT mails_once UNIQUE (kind, source)
);
CREATE INDEX mails_due ON mails (next_attempt_at) WHERE status = 'pending';
-- The retention sweep's: mails done with (sent or failed), oldest first.
CREATE INDEX mails_done ON mails (created_at) WHERE status <> 'pending';
