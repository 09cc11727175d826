-- D29 on D20: mail that cannot be turned against a stranger.
-- One address gets at most MAIL_PER_RECIPIENT_PER_HOUR mails an hour: a mail
-- past it is written as dropped (never sent), kept like a sent one until the
-- retention sweep deletes it. The count reads the mails of the hour to one
-- address, however its letters are cased.
ALTER TABLE mails DROP CONSTRAINT mails_status_check;
ALTER TABLE mails ADD CONSTRAINT mails_status_check CHECK (status IN ('pending', 'sent', 'failed', 'dropped'));
CREATE INDEX mails_recipient_hour ON mails (lower(recipient), created_at);
-- A mail names its reader by address only: a name was the buyer's typing.
ALTER TABLE mails ALTER COLUMN recipient_name SET DEFAULT '';
-- Test-mode receipts are off until the merchant turns them on; live ones on.
-- A merchant without a row of a mode has that mode's default, read by the
-- notifier: so every merchant that never chose now gets no test receipt. A
-- row is a merchant's own choice and stays as it is.
