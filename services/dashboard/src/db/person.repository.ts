/** The people who sign in (schema `dashboard`): their row, role, password, second factor and recovery codes. */
import type { DashboardRole } from '@gateway/contracts';
import type { Pool, Queryable } from '@gateway/db';
import type { Language } from '@gateway/i18n';

/** Where a person signs in: the merchant dashboard (/dashboard) or the operations console (/ops). */
export type Door = 'dashboard' | 'ops';

export interface PersonRow {
  id: string;
  door: Door;
  merchant_id: string | null;
  role: DashboardRole | null;
  email: string;
  password_hash: string | null;
  totp_secret_ciphertext: string | null;
  totp_enabled_at: Date | null;
  created_at: Date;
  /** The language they read the dashboard in, when known (D20: their mails are in it). */
  language: Language | null;
}

const PERSON_COLUMNS = 'id, door, merchant_id, role, email, password_hash, totp_secret_ciphertext, totp_enabled_at, created_at, language';

export class PersonRepository {
  constructor(private readonly pool: Pool) {}

  async insert(
    db: Queryable,
    person: { id: string; door: Door; merchantId: string | null; role: DashboardRole | null; email: string; passwordHash: string | null; language?: Language | undefined },
  ): Promise<boolean> {
    const { rowCount } = await db.query(
      `INSERT INTO people (id, door, merchant_id, role, email, password_hash, language) VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (door, email) WHERE removed_at IS NULL DO NOTHING`,
      [person.id, person.door, person.merchantId, person.role, person.email, person.passwordHash, person.language ?? null],
    );
    return rowCount === 1;
  }

  async byEmail(door: Door, email: string): Promise<PersonRow | undefined> {
    const { rows } = await this.pool.query<PersonRow>(`SELECT ${PERSON_COLUMNS} FROM people WHERE door = $1 AND email = $2 AND removed_at IS NULL`, [door, email]);
    return rows[0];
  }

  async byId(id: string, db: Queryable = this.pool): Promise<PersonRow | undefined> {
    const { rows } = await db.query<PersonRow>(`SELECT ${PERSON_COLUMNS} FROM people WHERE id = $1 AND removed_at IS NULL`, [id]);
    return rows[0];
  }

  /** A merchant's team, oldest first. */
  async team(merchantId: string): Promise<PersonRow[]> {
    const { rows } = await this.pool.query<PersonRow>(
      `SELECT ${PERSON_COLUMNS} FROM people WHERE door = 'dashboard' AND merchant_id = $1 AND removed_at IS NULL ORDER BY created_at, id`,
      [merchantId],
    );
    return rows;
  }

  /** A merchant's owners, oldest first: whom the account's notices are mailed to (D20). */
  async owners(merchantId: string): Promise<Pick<PersonRow, 'id' | 'email' | 'language'>[]> {
    const { rows } = await this.pool.query<Pick<PersonRow, 'id' | 'email' | 'language'>>(
      `SELECT id, email, language FROM people WHERE door = 'dashboard' AND merchant_id = $1 AND role = 'owner' AND removed_at IS NULL ORDER BY created_at, id`,
      [merchantId],
    );
    return rows;
  }

  /** Remembers the language a person reads the dashboard in. */
  async setLanguage(id: string, language: Language): Promise<void> {
    await this.pool.query(`UPDATE people SET language = $2 WHERE id = $1 AND language IS DISTINCT FROM $2`, [id, language]);
  }

  /** How many owners a merchant has: the last one may not leave or be demoted. */
  async ownerCount(db: Queryable, merchantId: string): Promise<number> {
    const { rows } = await db.query<{ n: string }>(
      `SELECT count(*) AS n FROM people WHERE door = 'dashboard' AND merchant_id = $1 AND role = 'owner' AND removed_at IS NULL`,
      [merchantId],
    );
    return Number(rows[0]?.n ?? 0);
  }

  /** Locks a merchant's team rows, so two owners changing roles at once cannot leave it ownerless. */
  async lockTeam(db: Queryable, merchantId: string): Promise<void> {
    await db.query(`SELECT id FROM people WHERE door = 'dashboard' AND merchant_id = $1 AND removed_at IS NULL FOR UPDATE`, [merchantId]);
  }

  async setRole(db: Queryable, id: string, role: DashboardRole): Promise<void> {
    await db.query(`UPDATE people SET role = $2 WHERE id = $1`, [id, role]);
  }

  /** Marks a person removed: they can no longer sign in, and their email is free again. */
  async remove(db: Queryable, id: string): Promise<void> {
    await db.query(`UPDATE people SET removed_at = now() WHERE id = $1`, [id]);
  }

  async setPassword(db: Queryable, id: string, passwordHash: string): Promise<void> {
    await db.query(`UPDATE people SET password_hash = $2 WHERE id = $1`, [id, passwordHash]);
  }

  async setTotp(db: Queryable, id: string, ciphertext: string | null, enabled: boolean): Promise<void> {
    await db.query(`UPDATE people SET totp_secret_ciphertext = $2, totp_enabled_at = CASE WHEN $3 THEN now() END WHERE id = $1`, [id, ciphertext, enabled]);
  }

  /** Spends a TOTP time step of the person: false when it, or a later one, was already used. */
  async useTotpStep(db: Queryable, id: string, step: number): Promise<boolean> {
    const { rowCount } = await db.query(`UPDATE people SET totp_last_step = $2 WHERE id = $1 AND (totp_last_step IS NULL OR totp_last_step < $2)`, [id, step]);
    return rowCount === 1;
  }

  /** Replaces the person's recovery codes (their hashes) by `codeHashes`. */
  async replaceRecoveryCodes(db: Queryable, personId: string, codeHashes: readonly string[]): Promise<void> {
    await db.query(`DELETE FROM recovery_codes WHERE person_id = $1`, [personId]);
    await db.query(`INSERT INTO recovery_codes (person_id, code_hash) SELECT $1, unnest($2::text[])`, [personId, codeHashes]);
  }

  async useRecoveryCode(personId: string, codeHash: string): Promise<boolean> {
    const { rowCount } = await this.pool.query(`UPDATE recovery_codes SET used_at = now() WHERE person_id = $1 AND code_hash = $2 AND used_at IS NULL`, [personId, codeHash]);
    return rowCount === 1;
  }

}
