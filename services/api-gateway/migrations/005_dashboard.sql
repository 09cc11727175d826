-- The dashboard and the operations console (D14, D15).

-- Who acted, as the door saw them: the person's sign-in email and the address
-- they acted from (NULL for gateway-admin, which knows neither). An entry is
-- an operator's or, from the dashboard, a merchant user's.
ALTER TABLE audit_log ADD COLUMN actor_email text, ADD COLUMN address text;
ALTER TABLE audit_log ADD CONSTRAINT audit_log_actor_type CHECK (actor_type IN ('operator', 'user'));
-- audit_log_by_time and audit_log_by_merchant (004) already serve both lists
-- newest first and their `before` cursor, a row comparison on (at, audit_id).

-- The operations console lists merchants newest first, a page at a time.
CREATE INDEX merchants_by_creation ON merchants (created_at DESC, id DESC);

-- A key's revoked_at may now lie in the future: a rotated key keeps working
-- until the end of its grace (D14). The dashboard lists a merchant's keys
-- newest first.
CREATE INDEX api_keys_by_merchant_creation ON api_keys (merchant_id, created_at DESC, id DESC);
DROP INDEX api_keys_by_merchant;
