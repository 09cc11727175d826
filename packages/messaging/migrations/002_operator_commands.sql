-- Operator commands (D17) this service has admitted, each remembered until its
-- signature expires, so that the same signed message delivered again is refused.
CREATE TABLE operator_command_ids (
  jti        text        PRIMARY KEY,
  expires_at timestamptz NOT NULL
);
CREATE INDEX operator_command_ids_expires_at ON operator_command_ids (expires_at);
