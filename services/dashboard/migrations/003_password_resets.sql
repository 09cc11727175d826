-- D20: "Forgot password?". A reset link works once, within its lifetime
-- (PASSWORD_RESET_TTL_SECONDS); the table keeps only the token's hash. A new
-- request spends the person's older links. `id` names the mail the notifier
-- writes for the link, so that a command sent again writes it once.
CREATE TABLE password_resets (
  id         text        PRIMARY KEY,
  token_hash text        NOT NULL UNIQUE,
  person_id  text        NOT NULL REFERENCES people (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at    timestamptz
);
CREATE INDEX password_resets_person ON password_resets (person_id) WHERE used_at IS NULL;

-- The language a person reads the dashboard in (the page's, at their last
-- sign-in; the inviter's for an invited person): their mails are in it.
ALTER TABLE people ADD COLUMN language text CHECK (language IN ('en', 'fr', 'ar'));
