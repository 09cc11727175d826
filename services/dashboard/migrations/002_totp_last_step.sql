-- The last TOTP time step a person signed in or confirmed with: a code is good
-- once (RFC 6238 5.2), not again within its 90 seconds of validity.
ALTER TABLE people ADD COLUMN totp_last_step bigint;
