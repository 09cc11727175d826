-- D26: how the buyer paid, on every balance transaction: a payment and the
-- refunds of it (and their reversals) name the session's method, so the
-- exports and the list tell card money from Flouci money. Entries written
-- before wallets were taken were all card payments.
ALTER TABLE balance_transactions
  ADD COLUMN payment_method text NOT NULL DEFAULT 'card',
  ADD CONSTRAINT balance_transactions_payment_method CHECK (payment_method IN ('card', 'flouci'));
