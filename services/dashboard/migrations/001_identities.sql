-- The people who sign in (D14, D15): a merchant's users at /dashboard/ and the
-- operators at /ops/. One table, one sign-in, one second factor: `door` says
-- which of the two the person may open. Emails are kept lower-cased.
CREATE TABLE people (
  id                     text        PRIMARY KEY,                -- usr_... or opr_...
  door                   text        NOT NULL CHECK (door IN ('dashboard', 'ops')),
  merchant_id            text,
  role                   text        CHECK (role IN ('owner', 'developer', 'viewer')),
  email                  text        NOT NULL,
  -- scrypt, self-describing (cost and salt with the hash); null until the setup link is used.
  password_hash          text,
  -- The TOTP secret, encrypted (D17); set up but not yet confirmed until totp_enabled_at.
  totp_secret_ciphertext text,
  totp_enabled_at        timestamptz,
  created_at             timestamptz NOT NULL DEFAULT now(),
  removed_at             timestamptz,
  CONSTRAINT people_door_fields CHECK (
    (door = 'dashboard' AND merchant_id IS NOT NULL AND role IS NOT NULL)
    OR (door = 'ops' AND merchant_id IS NULL AND role IS NULL)
  )
);
CREATE UNIQUE INDEX people_email ON people (door, email) WHERE removed_at IS NULL;
CREATE INDEX people_merchant ON people (merchant_id, created_at) WHERE removed_at IS NULL;

-- One-use links that set a password: a new person's, or a reset.
CREATE TABLE setup_links (
  token_hash text        PRIMARY KEY,
  person_id  text        NOT NULL REFERENCES people (id),
  expires_at timestamptz NOT NULL,
  used_at    timestamptz
);

-- Second-factor recovery codes, each usable once; only their hashes.
CREATE TABLE recovery_codes (
  person_id text        NOT NULL REFERENCES people (id),
  code_hash text        NOT NULL,
  used_at   timestamptz,
  PRIMARY KEY (person_id, code_hash)
);

-- Signed-in sessions: the cookie holds a random id, the table only its hash.
-- `verified` is false between the password and the second factor. `mode` is
-- the test/live switch, `csrf_token` the token every change must carry.
CREATE TABLE web_sessions (
  id_hash      text        PRIMARY KEY,
  person_id    text        NOT NULL REFERENCES people (id),
  verified     boolean     NOT NULL,
  mode         text        NOT NULL DEFAULT 'test' CHECK (mode IN ('test', 'live')),
  csrf_token   text        NOT NULL,
  address      text        NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  expires_at   timestamptz NOT NULL
);
CREATE INDEX web_sessions_person ON web_sessions (person_id);
CREATE INDEX web_sessions_expiry ON web_sessions (expires_at);
