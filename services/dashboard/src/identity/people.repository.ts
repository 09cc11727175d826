/** The people who sign in, their setup links, recovery codes and signed-in sessions (schema `dashboard`). */
import type { DashboardRole } from '@gateway/contracts';
import type { Pool, Queryable } from '@gateway/db';


/** The one-use links that set a person's password: an invitation's setup link (D14), a "Forgot password?" reset link (D20). */
export type PasswordLink = 'setup' | 'reset';
/** Each kind's table (a closed set: the only names ever put in a statement). */
const LINK_TABLES: Readonly<Record<PasswordLink, string>> = { setup: 'setup_links', reset: 'password_resets' };

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
  language: 'en' | 'fr' | 'ar' | null;
}

export interface WebSessionRow {
  person_id: string;
  verified: boolean;
  mode: 'test' | 'live';
  csrf_token: string;
  expires_at: Date;
}

const PERSON_COLUMNS = 'id, door, merchant_id, role, email, password_hash, totp_secret_ciphertext, totp_enabled_at, created_at, language';

export class PeopleRepository {
  constructor(private readonly pool: Pool) {}

  async insert(
    db: Queryable,
    person: { id: string; door: Door; merchantId: string | null; role: DashboardRole | null; email: string; passwordHash: string | null; language?: string | undefined },
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
  async setLanguage(id: string, language: string): Promise<void> {
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

  async remove(db: Queryable, id: string): Promise<void> {
    await db.query(`UPDATE people SET removed_at = now() WHERE id = $1`, [id]);
    await db.query(`DELETE FROM web_sessions WHERE person_id = $1`, [id]);
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

  // -------------------------------------------------------------- setup links

  async insertSetupLink(db: Queryable, tokenHash: string, personId: string, ttlSeconds: number): Promise<void> {
    await db.query(`INSERT INTO setup_links (token_hash, person_id, expires_at) VALUES ($1, $2, now() + make_interval(secs => $3))`, [tokenHash, personId, ttlSeconds]);
  }

  /**
   * Uses a one-use link (`link`: a setup link or a reset link) once, at the door
   * of the person it is for: the person it sets the password of, or undefined
   * when unknown, used, lapsed, or another door's.
   */
  async useLink(db: Queryable, link: PasswordLink, tokenHash: string, door: Door): Promise<string | undefined> {
    const { rows } = await db.query<{ person_id: string }>(
      `UPDATE ${LINK_TABLES[link]} l SET used_at = now() FROM people p
        WHERE l.token_hash = $1 AND l.used_at IS NULL AND l.expires_at > now() AND p.id = l.person_id AND p.door = $2 AND p.removed_at IS NULL
        RETURNING l.person_id`,
      [tokenHash, door],
    );
    return rows[0]?.person_id;
  }

  /** Whether a one-use link would still set a password at `door`. */
  async linkIsLive(link: PasswordLink, tokenHash: string, door: Door): Promise<boolean> {
    const { rows } = await this.pool.query(
      `SELECT 1 FROM ${LINK_TABLES[link]} l JOIN people p ON p.id = l.person_id
        WHERE l.token_hash = $1 AND l.used_at IS NULL AND l.expires_at > now() AND p.door = $2 AND p.removed_at IS NULL`,
      [tokenHash, door],
    );
    return rows.length === 1;
  }

  /** Spends every unused link of both kinds of a person: their password was just set. */
  async spendLinks(db: Queryable, personId: string): Promise<void> {
    for (const table of Object.values(LINK_TABLES)) await db.query(`UPDATE ${table} SET used_at = now() WHERE person_id = $1 AND used_at IS NULL`, [personId]);
  }

  /** Spends every unused setup link of a person (a new one replaces them, or a reset set the password). */
  async spendSetupLinks(db: Queryable, personId: string): Promise<void> {
    await db.query(`UPDATE setup_links SET used_at = now() WHERE person_id = $1 AND used_at IS NULL`, [personId]);
  }

  // -------------------------------------------------------------- password resets (D20)

  /**
   * A new reset link of a person, spending their older ones; when it lapses.
   * Undefined, and nothing changed, while their newest live link is younger
   * than `intervalSeconds`. Run in a transaction: the person's row is locked
   * first, so two requests at once leave one live link.
   */
  async insertPasswordReset(
    db: Queryable,
    reset: { id: string; tokenHash: string; personId: string; ttlSeconds: number; intervalSeconds: number },
  ): Promise<Date | undefined> {
    await db.query(`SELECT id FROM people WHERE id = $1 FOR UPDATE`, [reset.personId]);
    const recent = await db.query(
      `SELECT 1 FROM password_resets WHERE person_id = $1 AND used_at IS NULL AND expires_at > now() AND created_at > now() - make_interval(secs => $2)`,
      [reset.personId, reset.intervalSeconds],
    );
    if (recent.rows.length > 0) return undefined;
    await db.query(`UPDATE password_resets SET used_at = now() WHERE person_id = $1 AND used_at IS NULL`, [reset.personId]);
    const { rows } = await db.query<{ expires_at: Date }>(
      `INSERT INTO password_resets (id, token_hash, person_id, expires_at) VALUES ($1, $2, $3, now() + make_interval(secs => $4)) RETURNING expires_at`,
      [reset.id, reset.tokenHash, reset.personId, reset.ttlSeconds],
    );
    return rows[0]!.expires_at;
  }

  // -------------------------------------------------------------- recovery codes

  async replaceRecoveryCodes(db: Queryable, personId: string, codeHashes: readonly string[]): Promise<void> {
    await db.query(`DELETE FROM recovery_codes WHERE person_id = $1`, [personId]);
    await db.query(`INSERT INTO recovery_codes (person_id, code_hash) SELECT $1, unnest($2::text[])`, [personId, codeHashes]);
  }

  async useRecoveryCode(personId: string, codeHash: string): Promise<boolean> {
    const { rowCount } = await this.pool.query(`UPDATE recovery_codes SET used_at = now() WHERE person_id = $1 AND code_hash = $2 AND used_at IS NULL`, [personId, codeHash]);
    return rowCount === 1;
  }

  // -------------------------------------------------------------- signed-in sessions

  async insertSession(session: { idHash: string; personId: string; verified: boolean; csrfToken: string; address: string; idleSeconds: number }): Promise<void> {
    await this.pool.query(
      `INSERT INTO web_sessions (id_hash, person_id, verified, csrf_token, address, expires_at) VALUES ($1, $2, $3, $4, $5, now() + make_interval(secs => $6))`,
      [session.idHash, session.personId, session.verified, session.csrfToken, session.address, session.idleSeconds],
    );
  }

  /** The live session with this id, its idle expiry pushed back; lapsed sessions are deleted on the way. */
  async touchSession(idHash: string, idleSeconds: number): Promise<WebSessionRow | undefined> {
    const { rows } = await this.pool.query<WebSessionRow>(
      `UPDATE web_sessions SET last_seen_at = now(), expires_at = now() + make_interval(secs => $2)
        WHERE id_hash = $1 AND expires_at > now()
        RETURNING person_id, verified, mode, csrf_token, expires_at`,
      [idHash, idleSeconds],
    );
    return rows[0];
  }

  /** Replaces a session by a verified one (after the second factor): a new id, so the half-signed-in cookie is worth nothing. */
  async verifySession(oldIdHash: string, newIdHash: string, csrfToken: string): Promise<boolean> {
    const { rowCount } = await this.pool.query(`UPDATE web_sessions SET id_hash = $2, verified = true, csrf_token = $3 WHERE id_hash = $1 AND expires_at > now()`, [
      oldIdHash,
      newIdHash,
      csrfToken,
    ]);
    return rowCount === 1;
  }

  async setMode(idHash: string, mode: 'test' | 'live'): Promise<void> {
    await this.pool.query(`UPDATE web_sessions SET mode = $2 WHERE id_hash = $1`, [idHash, mode]);
  }

  async endSession(idHash: string): Promise<void> {
    await this.pool.query(`DELETE FROM web_sessions WHERE id_hash = $1`, [idHash]);
  }

  /** Ends every session of a person but `keep` (after a password or second-factor change). */
  async endOtherSessions(db: Queryable, personId: string, keepIdHash?: string): Promise<void> {
    await db.query(`DELETE FROM web_sessions WHERE person_id = $1 AND id_hash IS DISTINCT FROM $2`, [personId, keepIdHash ?? null]);
  }

  async purgeExpiredSessions(): Promise<number> {
    const { rowCount } = await this.pool.query(`DELETE FROM web_sessions WHERE expires_at < now()`);
    return rowCount ?? 0;
  }
}
