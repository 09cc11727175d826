-- Transactional outbox: rows written in the same transaction as the state
-- change they announce; the relay publishes them with confirms and deletes them.
CREATE TABLE outbox (
  id          bigserial PRIMARY KEY,
  message_id  text        NOT NULL,
  routing_key text        NOT NULL,
  body        text        NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);

-- Inbox: ids of the messages this service has processed, so a redelivery changes nothing.
CREATE TABLE inbox (
  message_id   text PRIMARY KEY,
  processed_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX inbox_processed_at ON inbox (processed_at);
