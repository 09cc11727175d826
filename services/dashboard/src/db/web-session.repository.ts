/** Signed-in sessions (schema `dashboard`): a person's session at a door, kept as the hash of its cookie's id. */
import type { Pool, Queryable } from '@gateway/db';

export interface WebSessionRow {
  person_id: string;
  verified: boolean;
  mode: 'test' | 'live';
  csrf_token: string;
  expires_at: Date;
}

export class WebSessionRepository {
  constructor(private readonly pool: Pool) {}

  async insert(session: { idHash: string; personId: string; verified: boolean; csrfToken: string; address: string; idleSeconds: number }): Promise<void> {
    await this.pool.query(
      `INSERT INTO web_sessions (id_hash, person_id, verified, csrf_token, address, expires_at) VALUES ($1, $2, $3, $4, $5, now() + make_interval(secs => $6))`,
      [session.idHash, session.personId, session.verified, session.csrfToken, session.address, session.idleSeconds],
    );
  }

  /** The live session with this id, its idle expiry pushed back; lapsed sessions are deleted on the way. */
  async touch(idHash: string, idleSeconds: number): Promise<WebSessionRow | undefined> {
    const { rows } = await this.pool.query<WebSessionRow>(
      `UPDATE web_sessions SET last_seen_at = now(), expires_at = now() + make_interval(secs => $2)
        WHERE id_hash = $1 AND expires_at > now()
        RETURNING person_id, verified, mode, csrf_token, expires_at`,
      [idHash, idleSeconds],
    );
    return rows[0];
  }

  /** Replaces a session by a verified one (after the second factor): a new id, so the half-signed-in cookie is worth nothing. */
  async verify(oldIdHash: string, newIdHash: string, csrfToken: string): Promise<boolean> {
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

  async end(idHash: string): Promise<void> {
    await this.pool.query(`DELETE FROM web_sessions WHERE id_hash = $1`, [idHash]);
  }

  /** Ends every session of a person but `keep` (after a password or second-factor change). */
  async endOthers(db: Queryable, personId: string, keepIdHash?: string): Promise<void> {
    await db.query(`DELETE FROM web_sessions WHERE person_id = $1 AND id_hash IS DISTINCT FROM $2`, [personId, keepIdHash ?? null]);
  }

  async purgeExpired(): Promise<number> {
    const { rowCount } = await this.pool.query(`DELETE FROM web_sessions WHERE expires_at < now()`);
    return rowCount ?? 0;
  }
}
