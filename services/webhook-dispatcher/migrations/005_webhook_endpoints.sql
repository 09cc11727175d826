-- Webhook endpoints as a resource (issue 19): a merchant may have several
-- endpoints per mode, each with its URL, the events it wants, its own secret
-- and a status. The endpoint `webhook set-url` configures stays one row per
-- merchant and mode (is_default): it receives every event, at the session's
-- own webhook_url when the session has one (D11). One delivery path serves
-- them all: every delivery names the endpoint it goes to.
ALTER TABLE endpoints
  ADD COLUMN id              text,
  ADD COLUMN is_default      boolean     NOT NULL DEFAULT true,
  ADD COLUMN description     text        NOT NULL DEFAULT '',
  -- Event types, or '*' for every one.
  ADD COLUMN enabled_events  text[]      NOT NULL DEFAULT '{*}',
  ADD COLUMN status          text        NOT NULL DEFAULT 'enabled' CHECK (status IN ('enabled', 'disabled')),
  ADD COLUMN disabled_reason text,
  ADD COLUMN disabled_at     timestamptz,
  -- Since when every attempt to the endpoint failed; null after a success.
  ADD COLUMN failing_since   timestamptz;
-- Default endpoints are created by `merchant create` and never named in a request: a random hex id will do.
ALTER TABLE endpoints ALTER COLUMN id SET DEFAULT 'we_' || substr(md5(random()::text || clock_timestamp()::text), 1, 24);
UPDATE endpoints SET id = DEFAULT;
ALTER TABLE endpoints ALTER COLUMN id SET NOT NULL;
ALTER TABLE endpoints DROP CONSTRAINT endpoints_pkey, ADD PRIMARY KEY (id);
CREATE UNIQUE INDEX endpoints_default ON endpoints (merchant_id, livemode) WHERE is_default;
CREATE INDEX endpoints_account ON endpoints (merchant_id, livemode);
-- The disable sweep looks only at failing endpoints.
CREATE INDEX endpoints_failing ON endpoints (failing_since) WHERE failing_since IS NOT NULL AND status = 'enabled' AND NOT is_default;

ALTER TABLE deliveries ADD COLUMN endpoint_id text;
UPDATE deliveries d SET endpoint_id = ep.id FROM endpoints ep WHERE ep.merchant_id = d.merchant_id AND ep.livemode = d.livemode AND ep.is_default;
ALTER TABLE deliveries ALTER COLUMN endpoint_id SET NOT NULL;

-- Replay reads an account's events by time; the retention sweep reads the oldest events and deliveries.
CREATE INDEX events_account_time ON events (merchant_id, livemode, created_at, id);
CREATE INDEX events_time ON events (created_at);
CREATE INDEX deliveries_time ON deliveries (created_at);
