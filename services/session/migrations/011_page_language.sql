-- The language of the hosted page the buyer last paid on (D18: an 'auto' session's
-- page follows the buyer's browser): the buyer's receipts are written in it (D20).
-- Empty until a payment is attempted.
ALTER TABLE sessions ADD COLUMN page_language text NOT NULL DEFAULT '' CHECK (page_language IN ('', 'fr', 'en', 'ar'));
