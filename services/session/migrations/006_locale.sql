-- The hosted page's language chosen at creation (D18); 'auto' follows the buyer's browser.
ALTER TABLE sessions ADD COLUMN locale text NOT NULL DEFAULT 'auto' CHECK (locale IN ('fr', 'en', 'ar', 'auto'));
