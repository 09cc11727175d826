-- D19: the payment link a session was made through (checkout's pl_ id), if any.
ALTER TABLE sessions ADD COLUMN payment_link text;
