-- The signing secrets, encrypted. The service encrypts the clear columns
-- secret and previous_secret into these as it starts, then drops them (SQL
-- cannot encrypt: it does not hold the KEK); secret_ciphertext becomes NOT
-- NULL then.
ALTER TABLE endpoints
  ADD COLUMN secret_ciphertext          text,
  ADD COLUMN previous_secret_ciphertext text;
