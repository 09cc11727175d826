-- Whether each merchant is suspended, as the api-gateway announced it
-- (merchant.suspended, merchant.reactivated): a suspended merchant's open
-- sessions take no payment, whichever way the payment comes. A merchant with
-- no row here was never suspended. `changed_at` is the announcing event's
-- time: an announcement older than the row's changes nothing.
CREATE TABLE merchant_standing (
  merchant_id text        PRIMARY KEY,
  suspended   boolean     NOT NULL,
  changed_at  timestamptz NOT NULL
);
