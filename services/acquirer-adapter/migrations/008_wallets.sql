-- Wallet payments (D26). Every order says how it is paid: by card, or with
-- the Flouci wallet; a wallet order's acquirer_order_id is the wallet's
-- payment id. REDIRECTED: the buyer was sent to the wallet's page and the
-- outcome is not known yet (the buyer's return, the wallet's notice and the
-- sweep each verify it with the wallet).
ALTER TABLE orders
  ADD COLUMN payment_method_type text NOT NULL DEFAULT 'card' CHECK (payment_method_type IN ('card', 'flouci'));

DROP INDEX orders_due;
CREATE INDEX orders_due ON orders (next_check_at) WHERE status IN ('STARTED', 'METHOD', 'CHALLENGED', 'REDIRECTED', 'UNKNOWN');

-- What a declined wallet payment owes the buyer (D26: the wallet reported
-- another amount than ours, and took it): its hold released, or the payment
-- refunded whole. Written with the decline; the sweep gives it back until the
-- wallet confirms (give_back_due_at NULL then), or an operator must.
ALTER TABLE orders
  ADD COLUMN give_back        text CHECK (give_back IN ('release', 'refund')),
  ADD COLUMN give_back_amount numeric(12,3),
  ADD COLUMN give_back_due_at timestamptz,
  ADD COLUMN give_back_checks integer NOT NULL DEFAULT 0;
CREATE INDEX orders_give_back_due ON orders (give_back_due_at) WHERE give_back_due_at IS NOT NULL;
