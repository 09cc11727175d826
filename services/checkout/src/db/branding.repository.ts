/** Storage of merchants' branding: one row per merchant, its accent colour and its logo (bytes, type and address). */
import type { Pool } from '@gateway/db';
import { TtlCache } from '@gateway/runtime';

export interface BrandingRow {
  merchant_id: string;
  accent_color: string | null;
  logo_type: 'image/png' | 'image/svg+xml' | null;
  logo_sha256: string | null;
}

export interface StoredLogo {
  type: 'image/png' | 'image/svg+xml';
  bytes: Buffer;
}

/** What one change sets: a field left out stays as it is; `logo: null` removes the logo. */
export interface BrandingChange {
  accentColor?: string;
  logo?: { type: 'image/png' | 'image/svg+xml'; bytes: Buffer; sha256: string } | null;
}

/** Merchants whose branding a replica keeps in memory at most (most have none, and that is kept too). */
const MAX_CACHED = 10_000;

export class BrandingRepository {
  private readonly cache: TtlCache<string, BrandingRow | undefined>;

  /** `cacheMs`: how long a read is shown before the row is read again (0: every time). */
  constructor(
    private readonly pool: Pool,
    cacheMs = 0,
  ) {
    this.cache = new TtlCache(cacheMs, MAX_CACHED);
  }

  async find(merchantId: string): Promise<BrandingRow | undefined> {
    const cached = this.cache.lookup(merchantId);
    if (cached) return cached.value;
    const { rows } = await this.pool.query<BrandingRow>('SELECT merchant_id, accent_color, logo_type, logo_sha256 FROM merchant_branding WHERE merchant_id = $1', [merchantId]);
    this.cache.set(merchantId, rows[0]);
    return rows[0];
  }

  /** Applies `change` in one statement and answers the branding as it now stands. */
  async change(merchantId: string, change: BrandingChange, at: Date): Promise<BrandingRow> {
    const setsColor = change.accentColor !== undefined;
    const setsLogo = change.logo !== undefined;
    const logo = change.logo ?? null;
    const { rows } = await this.pool.query<BrandingRow>(
      `INSERT INTO merchant_branding AS b (merchant_id, accent_color, logo, logo_type, logo_sha256, updated_at)
       VALUES ($1, $3, $5, $6, $7, $8)
       ON CONFLICT (merchant_id) DO UPDATE SET
         accent_color = CASE WHEN $2 THEN EXCLUDED.accent_color ELSE b.accent_color END,
         logo         = CASE WHEN $4 THEN EXCLUDED.logo ELSE b.logo END,
         logo_type    = CASE WHEN $4 THEN EXCLUDED.logo_type ELSE b.logo_type END,
         logo_sha256  = CASE WHEN $4 THEN EXCLUDED.logo_sha256 ELSE b.logo_sha256 END,
         updated_at   = EXCLUDED.updated_at
       RETURNING merchant_id, accent_color, logo_type, logo_sha256`,
      [merchantId, setsColor, change.accentColor ?? null, setsLogo, logo?.bytes ?? null, logo?.type ?? null, logo?.sha256 ?? null, at],
    );
    const row = rows[0];
    if (!row) throw new Error('branding upsert returned no row');
    this.cache.set(merchantId, row);
    return row;
  }

  /** The logo at `sha256` of the given type, whoever's it is (the same bytes are the same logo). */
  async logo(sha256: string, type: StoredLogo['type']): Promise<StoredLogo | undefined> {
    const { rows } = await this.pool.query<{ logo: Buffer }>('SELECT logo FROM merchant_branding WHERE logo_sha256 = $1 AND logo_type = $2 LIMIT 1', [sha256, type]);
    const row = rows[0];
    return row ? { type, bytes: row.logo } : undefined;
  }
}
