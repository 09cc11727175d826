-- Customers and their saved cards (D24). A customer belongs to one merchant and
-- mode; `external_id` is the merchant's own id of it, unique among the
-- account's customers that are not deleted (a create with it answers the
-- customer it names). A deleted customer is kept, marked, so its sessions
-- still name it; it is never found or charged again.
CREATE TABLE customers (
  id          text        PRIMARY KEY,
  merchant_id text        NOT NULL,
  livemode    boolean     NOT NULL,
  external_id text,
  email       text,
  name        text,
  phone       text,
  -- json, not jsonb: the merchant's metadata comes back exactly as sent.
  metadata    json        NOT NULL DEFAULT '{}',
  created_at  timestamptz NOT NULL,
  deleted_at  timestamptz
);
CREATE UNIQUE INDEX customers_external_id ON customers (merchant_id, livemode, external_id) WHERE external_id IS NOT NULL AND deleted_at IS NULL;
-- The list, newest first with cursors, and its email filter.
CREATE INDEX customers_listing ON customers (merchant_id, livemode, created_at DESC, id DESC) WHERE deleted_at IS NULL;
CREATE INDEX customers_by_email ON customers (merchant_id, livemode, email) WHERE deleted_at IS NULL;

-- A customer's saved cards: what the buyer and the merchant see of each. The
-- acquirer's binding, which charges it, is kept by the acquirer adapter
-- (sealed), under the payment method's id. One card (brand, last four,
-- expiry) is one payment method per customer while it is attached.
CREATE TABLE payment_methods (
  id             text        PRIMARY KEY,
  customer_id    text        NOT NULL REFERENCES customers (id),
  merchant_id    text        NOT NULL,
  livemode       boolean     NOT NULL,
  card_brand     text        NOT NULL,
  card_last_four text        NOT NULL,
  exp_month      smallint    NOT NULL CHECK (exp_month BETWEEN 1 AND 12),
  exp_year       smallint    NOT NULL,
  usage          text        NOT NULL CHECK (usage IN ('on_session', 'off_session')),
  created_at     timestamptz NOT NULL,
  detached_at    timestamptz
);
CREATE UNIQUE INDEX payment_methods_one_per_card ON payment_methods (customer_id, card_brand, card_last_four, exp_month, exp_year) WHERE detached_at IS NULL;

-- The customer a session is for, whether its card is to be saved, and for a
-- charge without the buyer the saved card it charges (D24).
ALTER TABLE sessions ADD COLUMN customer_id text;
ALTER TABLE sessions ADD COLUMN save_card text NOT NULL DEFAULT 'off' CHECK (save_card IN ('off', 'on_session', 'off_session'));
ALTER TABLE sessions ADD COLUMN payment_method_id text;
-- The dashboard's list of a customer's payments, in list order.
CREATE INDEX sessions_listing_by_customer ON sessions (merchant_id, livemode, customer_id, created_at DESC, id DESC) WHERE customer_id IS NOT NULL;
