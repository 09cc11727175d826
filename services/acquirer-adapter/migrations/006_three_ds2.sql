-- 3-D Secure 2 (D30, ACQUIRER.md "3-D Secure 2"). METHOD: the acquirer
-- opened a 3-D Secure 2 transaction (three_ds_server_trans_id) whose 3DS
-- Method the buyer's browser runs before the card goes to the acquirer
-- again. Only then does the order keep the card: sealed_card is the compact
-- JWE the adapter received (sealed for its own key and this attempt, never
-- in clear), and repeat_fields what goes with it on the repeat (the hosted
-- page's address and language, the buyer's contact). Both are taken in the
-- statement that claims the order for the repeat and wiped by every other
-- write that moves the order on; the constraint makes keeping them past the
-- METHOD state impossible. challenge_return: what the buyer's return from a
-- challenge must bring, pa_res (3-D Secure 1) or cres (3-D Secure 2).
ALTER TABLE orders
  ADD COLUMN three_ds_server_trans_id text,
  ADD COLUMN challenge_return         text,
  ADD COLUMN sealed_card              text,
  ADD COLUMN repeat_fields            jsonb,
  ADD CONSTRAINT orders_challenge_return CHECK (challenge_return IN ('pa_res', 'cres')),
  ADD CONSTRAINT orders_card_only_for_method CHECK ((sealed_card IS NULL AND repeat_fields IS NULL) OR status = 'METHOD');

-- The sweep's query looks at METHOD orders too.
DROP INDEX orders_due;
CREATE INDEX orders_due ON orders (next_check_at) WHERE status IN ('STARTED', 'METHOD', 'CHALLENGED', 'UNKNOWN');
