-- The terminal password, encrypted. The service encrypts the clear column
-- password into it as it starts, then drops that column (SQL cannot encrypt:
-- it does not hold the KEK); password_ciphertext becomes NOT NULL then.
ALTER TABLE terminals ADD COLUMN password_ciphertext text;
