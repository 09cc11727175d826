/**
 * Account links (schema `dashboard`): the one-use links that set a person's
 * password, an invitation's setup link (D14, table `setup_links`) and a
 * "Forgot password?" reset link (D20, table `password_resets`). Each is kept
 * as the hash of the token it carries.
 */
import type { Pool, Queryable } from '@gateway/db';
import type { Door } from './person.repository.js';

/** The kinds of account link. */
export type AccountLink = 'setup' | 'reset';
/** Each kind's table (a closed set: the only names ever put in a statement). */
const TABLES: Readonly<Record<AccountLink, string>> = { setup: 'setup_links', reset: 'password_resets' };
/**
 * What else a link of each kind needs to work: a setup link sets a person's
 * first password, and is dead once they have one, however it was set (D29:
 * links made before a person was created with a password included).
 */
const STILL_FOR: Readonly<Record<AccountLink, string>> = { setup: 'AND p.password_hash IS NULL', reset: '' };

export class AccountLinkRepository {
  constructor(private readonly pool: Pool) {}

  async insertSetupLink(db: Queryable, tokenHash: string, personId: string, ttlSeconds: number): Promise<void> {
    await db.query(`INSERT INTO setup_links (token_hash, person_id, expires_at) VALUES ($1, $2, now() + make_interval(secs => $3))`, [tokenHash, personId, ttlSeconds]);
  }

  /**
   * A new reset link of a person, spending their older ones; when it lapses.
   * Undefined, and nothing changed, while their newest live reset link is younger
   * than `intervalSeconds`. Run in a transaction: the person's row is locked
   * first, so two requests at once leave one live reset link.
   */
  async insertResetLink(
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

  /**
   * Uses an account link of kind `kind` once, at the door of the person it is
   * for: the person it sets the password of, or undefined when unknown, used,
   * lapsed, or another door's.
   */
  async use(db: Queryable, kind: AccountLink, tokenHash: string, door: Door): Promise<string | undefined> {
    const { rows } = await db.query<{ person_id: string }>(
      `UPDATE ${TABLES[kind]} l SET used_at = now() FROM people p
        WHERE l.token_hash = $1 AND l.used_at IS NULL AND l.expires_at > now() AND p.id = l.person_id AND p.door = $2 AND p.removed_at IS NULL ${STILL_FOR[kind]}
        RETURNING l.person_id`,
      [tokenHash, door],
    );
    return rows[0]?.person_id;
  }

  /** Whether an account link would still set a password at `door`. */
  async isLive(kind: AccountLink, tokenHash: string, door: Door): Promise<boolean> {
    const { rows } = await this.pool.query(
      `SELECT 1 FROM ${TABLES[kind]} l JOIN people p ON p.id = l.person_id
        WHERE l.token_hash = $1 AND l.used_at IS NULL AND l.expires_at > now() AND p.door = $2 AND p.removed_at IS NULL ${STILL_FOR[kind]}`,
      [tokenHash, door],
    );
    return rows.length === 1;
  }

  /** Spends every unused account link of both kinds of a person: their password was just set, or they just signed in. */
  async spendAll(db: Queryable, personId: string): Promise<void> {
    for (const table of Object.values(TABLES)) await db.query(`UPDATE ${table} SET used_at = now() WHERE person_id = $1 AND used_at IS NULL`, [personId]);
  }

  /** Spends every unused setup link of a person (a new one replaces them). */
  async spendSetupLinks(db: Queryable, personId: string): Promise<void> {
    await db.query(`UPDATE setup_links SET used_at = now() WHERE person_id = $1 AND used_at IS NULL`, [personId]);
  }
}
