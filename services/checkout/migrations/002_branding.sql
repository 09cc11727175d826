-- A merchant's branding (hosted page, payment link page, receipts): an accent
-- colour and a logo, both optional, the same in both modes. The logo is kept
-- as it was uploaded once checked (a PNG, or an SVG of allowed elements only)
-- and served at /checkout/brand/<logo_sha256>.<png|svg>: a new logo is a new
-- address, so the old one may be cached for good.
CREATE TABLE merchant_branding (
  merchant_id   text        PRIMARY KEY,
  accent_color  text        CHECK (accent_color ~ '^#[0-9a-f]{6}$'),
  logo          bytea,
  logo_type     text        CHECK (logo_type IN ('image/png', 'image/svg+xml')),
  logo_sha256   text        CHECK (logo_sha256 ~ '^[0-9a-f]{64}$'),
  updated_at    timestamptz NOT NULL,
  CONSTRAINT merchant_branding_logo CHECK ((logo IS NULL) = (logo_type IS NULL) AND (logo IS NULL) = (logo_sha256 IS NULL))
);
-- Serving a logo by its address.
CREATE INDEX merchant_branding_logo_sha256 ON merchant_branding (logo_sha256) WHERE logo_sha256 IS NOT NULL;
