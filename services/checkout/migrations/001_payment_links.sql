-- D19: a merchant's payment links. A link's payments are sessions the session
-- service makes (session.create); the link keeps only what its page needs:
-- what it sells, how often it may be paid, and the next merchant_reference
-- number (<id>-<n>). The merchant's name and order prefix are kept as they
-- were when the link was made, for the page and for the sessions' context.
CREATE TABLE payment_links (
  id              text          PRIMARY KEY,
  merchant_id     text          NOT NULL,
  livemode        boolean       NOT NULL,
  code            text          NOT NULL UNIQUE CHECK (code ~ '^[0-9A-Za-z]{12,}$'),
  merchant_name   text          NOT NULL,
  order_prefix    text          NOT NULL,
  description     text          NOT NULL,
  amount          numeric(12,3),
  currency        text          NOT NULL,
  open_amount     boolean       NOT NULL,
  amount_min      numeric(12,3),
  amount_max      numeric(12,3),
  items           jsonb         NOT NULL DEFAULT '[]',
  metadata        jsonb         NOT NULL DEFAULT '{}',
  return_url      text          NOT NULL DEFAULT '',
  locale          text          NOT NULL DEFAULT 'auto' CHECK (locale IN ('fr', 'en', 'ar', 'auto')),
  collect_phone   boolean       NOT NULL DEFAULT false,
  max_payments    integer       CHECK (max_payments >= 1),
  expires_at      timestamptz,
  active          boolean       NOT NULL DEFAULT true,
  payments_count  integer       NOT NULL DEFAULT 0,
  sessions_made   integer       NOT NULL DEFAULT 0,
  created_at      timestamptz   NOT NULL,
  CONSTRAINT payment_links_price CHECK (open_amount = (amount IS NULL)),
  CONSTRAINT payment_links_bounds CHECK (amount_min IS NULL OR amount_max IS NULL OR amount_min <= amount_max)
);

-- Lists (readPage): newest first per account.
CREATE INDEX payment_links_account ON payment_links (merchant_id, livemode, created_at DESC, id DESC);

-- Apply-once of a link's succeeded payments (session.succeeded): one row per session.
CREATE TABLE payment_link_payments (
  session_id  text        PRIMARY KEY,
  link_id     text        NOT NULL REFERENCES payment_links (id),
  paid_at     timestamptz NOT NULL
);

-- Sessions asked for from a link's page, per buyer address and minute: the page's flood limit.
CREATE TABLE payment_link_requests (
  link_id  text        NOT NULL,
  address  text        NOT NULL,
  minute   timestamptz NOT NULL,
  count    integer     NOT NULL,
  PRIMARY KEY (link_id, address, minute)
);
CREATE INDEX payment_link_requests_minute ON payment_link_requests (minute);
