-- Wallet payments (D26). Every order says how it is paid: by card, or with
-- the Flouci wallet; a wallet order's acquirer_order_id is the wallet's
-- payment id. REDIRECTED: the buyer was sent to the wallet's page and the
-- outcome is not known yet (the buyer's return, the wallet's notice and the
-- sweep each verify it with the wallet).
ALTER TABLE orders
  ADD COLUMN payment_method_type text NOT NULL DEFAULT 'card' CHECK (payment_method_type IN ('card', 'flouci'));

DROP INDEX orders_due;
CREATE INDEX orders_due ON orders (next_check_at) WHERE status IN ('STARTED', 'METHOD', 'CHALLENGED', 'REDIRECTED', 'UNKNOWN');
