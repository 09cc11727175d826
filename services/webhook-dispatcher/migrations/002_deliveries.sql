-- After a rotation the old secret still signs (second v1 entry) until it lapses.
ALTER TABLE endpoints
  ADD COLUMN previous_secret            text,
  ADD COLUMN previous_secret_expires_at timestamptz;

-- Every event that merchants receive as a webhook, stored once under its
-- evt_ id (the broker envelope's id, the same in every attempt and resend).
-- body holds the exact bytes that are signed and sent.
CREATE TABLE events (
  id          text        PRIMARY KEY,
  type        text        NOT NULL,
  merchant_id text        NOT NULL,
  livemode    boolean     NOT NULL,
  session_id  text        NOT NULL,
  -- The session's own webhook_url; '' sends to the merchant's default for the mode.
  session_url text        NOT NULL DEFAULT '',
  body        text        NOT NULL,
  created_at  timestamptz NOT NULL
);
CREATE INDEX events_session ON events (session_id);

-- One row per delivery attempt (INTERFACE 2.6). A PENDING row is an attempt
-- that is due or on its way; the replica sending it holds it until
-- lease_until, after which any replica may send it again. A FAILED row with
-- next_retry_at is the schedule of the next automatic attempt; retried marks
-- that attempt as made.
CREATE TABLE deliveries (
  seq              bigint      GENERATED ALWAYS AS IDENTITY UNIQUE,
  id               text        PRIMARY KEY,
  event_id         text        NOT NULL REFERENCES events (id),
  event_type       text        NOT NULL,
  merchant_id      text        NOT NULL,
  livemode         boolean     NOT NULL,
  session_id       text        NOT NULL,
  url              text        NOT NULL,
  attempt_number   integer     NOT NULL CHECK (attempt_number >= 1),
  -- An operator's resend: a single attempt, never retried automatically.
  manual           boolean     NOT NULL DEFAULT false,
  status           text        NOT NULL CHECK (status IN ('PENDING', 'SUCCEEDED', 'FAILED')),
  http_status_code integer,
  response_time_ms integer,
  error_message    text        NOT NULL DEFAULT '',
  next_retry_at    timestamptz,
  retried          boolean     NOT NULL DEFAULT false,
  lease_until      timestamptz,
  created_at       timestamptz NOT NULL DEFAULT now(),
  completed_at     timestamptz
);
CREATE INDEX deliveries_account ON deliveries (merchant_id, livemode, seq);
CREATE INDEX deliveries_session ON deliveries (session_id, seq);
CREATE INDEX deliveries_event ON deliveries (event_id);
CREATE INDEX deliveries_leased ON deliveries (lease_until) WHERE status = 'PENDING';
CREATE INDEX deliveries_retry_due ON deliveries (next_retry_at) WHERE status = 'FAILED' AND NOT retried AND next_retry_at IS NOT NULL;
