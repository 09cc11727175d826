-- D29 holds D10's Idempotency-Key rule on every POST, the ones whose answer
-- shows a secret (a webhook endpoint's create and rotate_secret) included.
-- Such an answer is kept encrypted (D17, the service's data key), never in
-- clear: `response_sealed` says response_body is its ciphertext.
ALTER TABLE idempotency_keys ADD COLUMN response_sealed boolean NOT NULL DEFAULT false;
