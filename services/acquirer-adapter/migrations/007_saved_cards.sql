-- Saved cards (D24). An order may be to save its card for a customer
-- (save_customer, save_usage, from the attempt); once approved, saved_card
-- holds what was saved with it (the payment method's id, expiry and usage),
-- so a repeated step answers it as the first did.
ALTER TABLE orders
  ADD COLUMN save_customer text,
  ADD COLUMN save_usage    text CHECK (save_usage IN ('on_session', 'off_session')),
  ADD COLUMN saved_card    json;

-- The acquirer's binding of each saved card, under the payment method's id
-- (the session service's): encrypted (D17), bound to its row, decrypted only
-- to charge or unbind it. detached_at: the card was removed (it is never
-- charged again); unbound_at: the acquirer confirmed the binding is gone;
-- unbind_due_at: when a detached card's unbinding is (next) tried.
CREATE TABLE bindings (
  payment_method_id  text        PRIMARY KEY,
  merchant_id        text        NOT NULL,
  livemode           boolean     NOT NULL,
  customer_id        text        NOT NULL,
  binding_ciphertext text        NOT NULL,
  created_at         timestamptz NOT NULL DEFAULT now(),
  detached_at        timestamptz,
  unbound_at         timestamptz,
  unbind_due_at      timestamptz
);
CREATE INDEX bindings_unbind_due ON bindings (unbind_due_at) WHERE unbind_due_at IS NOT NULL;
