-- Wallet payments (D26): every attempt says how it was paid, by card or with
-- the Flouci wallet, from the moment it starts.
ALTER TABLE attempts
  ADD COLUMN payment_method_type text NOT NULL DEFAULT 'card' CHECK (payment_method_type IN ('card', 'flouci'));
