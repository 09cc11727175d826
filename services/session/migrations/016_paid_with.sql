-- How a session was paid (D26): the method of its approved attempt, set with
-- the outcome that approves it; empty until then. Lists and exports name it
-- without reading the attempts.
ALTER TABLE sessions
  ADD COLUMN paid_with text NOT NULL DEFAULT '' CHECK (paid_with IN ('', 'card', 'flouci'));
UPDATE sessions s SET paid_with = 'card'
  WHERE EXISTS (SELECT 1 FROM attempts a WHERE a.session_id = s.id AND a.status = 'SUCCEEDED');
