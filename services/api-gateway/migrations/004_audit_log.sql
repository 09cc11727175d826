-- The audit log of the whole system (D14, D15, D17): each operator command a
-- service runs reaches it as an audit.recorded event, stored once by event id.
-- Never a secret: the services leave them out of `detail`. The dashboard and
-- the operations console add their actors (actor_type 'user') to the same table.
CREATE TABLE audit_log (
  audit_id       text        PRIMARY KEY,
  actor_type     text        NOT NULL,
  actor_id       text        NOT NULL,
  -- The key an operator signed with.
  actor_key_id   text,
  action         text        NOT NULL,
  merchant_id    text,
  target         text,
  outcome        text        NOT NULL,
  detail         jsonb       NOT NULL,
  service        text        NOT NULL,
  correlation_id text        NOT NULL,
  at             timestamptz NOT NULL
);

-- Newest first, for the whole system and for one merchant.
CREATE INDEX audit_log_by_time ON audit_log (at DESC, audit_id DESC);
CREATE INDEX audit_log_by_merchant ON audit_log (merchant_id, at DESC, audit_id DESC);
