-- Idempotency-Key of the API's POSTs (D10): the first answer for (merchant, mode,
-- key, route), kept 24 hours. A row is 'started' while the first request runs
-- (a lock that later requests with the key see as 409) and 'done' once its answer
-- is stored. `created_at` also names the claim, so that a request whose claim
-- was taken over (expired or abandoned) can no longer store or release it.
CREATE TABLE idempotency_keys (
  merchant_id     text        NOT NULL,
  livemode        boolean     NOT NULL,
  key             text        NOT NULL,
  -- Method and request path without the trailing slash: POST /gateway/sessions/ps_X/cancel.
  route           text        NOT NULL,
  -- SHA-256 of the canonical JSON of the request body (sorted keys; empty when there is none).
  request_hash    bytea       NOT NULL,
  state           text        NOT NULL CHECK (state IN ('started', 'done')),
  response_status integer,
  response_body   text,
  created_at      timestamptz NOT NULL DEFAULT now(),
  expires_at      timestamptz NOT NULL,
  PRIMARY KEY (merchant_id, livemode, key, route),
  CHECK ((state = 'done') = (response_status IS NOT NULL AND response_body IS NOT NULL))
);

-- The purge deletes expired rows oldest first.
CREATE INDEX idempotency_keys_by_expiry ON idempotency_keys (expires_at);
