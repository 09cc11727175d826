/**
 * An attempt to send, as the sending path holds it (DeliveryJob), and the SQL
 * that reads one: every statement that claims attempts answers them as jobs,
 * each with the lease the database reports left on it.
 */

/** One attempt to send, with what signing and sending it needs. */
export interface DeliveryJob {
  deliveryId: string;
  eventId: string;
  eventType: string;
  url: string;
  attemptNumber: number;
  manual: boolean;
  body: string;
  correlationId: string;
  /** The endpoint, which its secrets' ciphertexts are bound to. */
  endpointId: string;
  endpointIsDefault: boolean;
  merchantId: string;
  livemode: boolean;
  /** The endpoint's secrets, encrypted (D17): decrypted only to sign. */
  secretCiphertext: string;
  previousSecretCiphertext: string | null;
  previousSecretExpiresAt: Date | null;
  /**
   * When this replica's lease on the attempt ends, by performance.now(): the
   * time just before the claiming statement was sent plus the lease the
   * database reported left, so never later than the lease's real end.
   */
  leaseEndsAt: number;
  /** With tracing on, a first attempt's: the trace its POST continues (retries, read back by a sweep, have none). */
  traceContext?: string | null;
}

/**
 * Where event `e` goes at endpoint `ep`: the default endpoint takes the
 * session's own URL when it has one (D11), else its own; managed endpoints
 * their own.
 */
export const TARGET_URL = `CASE WHEN ep.is_default AND e.session_url <> '' THEN e.session_url ELSE ep.url END`;

/** The endpoint columns of a job, from endpoint `ep`. */
export const ENDPOINT_JOB_COLUMNS = `ep.id AS "endpointId", ep.is_default AS "endpointIsDefault",
    ep.secret_ciphertext AS "secretCiphertext", ep.previous_secret_ciphertext AS "previousSecretCiphertext", ep.previous_secret_expires_at AS "previousSecretExpiresAt"`;

/** Milliseconds left of the lease of claimed attempt `d`, by the database's clock as the statement runs. */
export const LEASE_LEFT_MS = `greatest(0, extract(epoch FROM d.lease_until - clock_timestamp()) * 1000)::float8 AS "leaseLeftMs"`;

/** The job columns of claimed attempts `source` (a CTE), read as `d` and joined to their event and endpoint. */
export function jobsOf(source: string): string {
  return `SELECT d.id AS "deliveryId", d.event_id AS "eventId", d.event_type AS "eventType", d.url,
    d.attempt_number AS "attemptNumber", d.manual, e.body, e.correlation_id AS "correlationId", d.merchant_id AS "merchantId", d.livemode,
    ${ENDPOINT_JOB_COLUMNS}, ${LEASE_LEFT_MS}
  FROM ${source} d JOIN events e ON e.id = d.event_id
  JOIN endpoints ep ON ep.id = d.endpoint_id`;
}

/** A claimed row as the database answers it: the lease as milliseconds left, not yet a time of this process. */
export type ClaimedRow = Omit<DeliveryJob, 'leaseEndsAt'> & { leaseLeftMs: number };

/** Jobs of rows claimed by a statement sent at `sentAt` (performance.now()). */
export function leased(rows: readonly ClaimedRow[], sentAt: number): DeliveryJob[] {
  return rows.map(({ leaseLeftMs, ...job }) => ({ ...job, leaseEndsAt: sentAt + leaseLeftMs }));
}
