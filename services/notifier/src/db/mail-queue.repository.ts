/**
 * The mail queue (D20): the mails to send, kept in the table `mails`. A mail
 * is written once, keyed on its kind and what it is about; the sender claims
 * due ones with a lease (packages/db's leaseClaim: its next attempt time
 * pushed past the lease), so replicas share them
 * and one that dies mid-send leaves its mails to the others, and no database
 * connection is held while a mail server answers. Once an invitation or a
 * password reset is sent, given up or dropped, its bodies are replaced by a
 * note: the mail queue keeps no live one-use link. A mail to an address that
 * has had its hour's allowance is written as dropped (D29), never sent.
 */
import { newId } from '@gateway/contracts';
import { GroupCommit, leaseClaim, purgeBatch, withTransaction, type Pool } from '@gateway/db';
import type { PeopleMailKind } from '../domain/people-mails.js';
import type { ReceiptKind } from '../domain/receipts.js';

/** Every kind of mail the mail queue holds: the buyers' receipts and the mails to the dashboard's people. */
export type MailKind = ReceiptKind | PeopleMailKind;

/** A mail to write. */
export interface NewMail {
  kind: MailKind;
  /** What it is about (a payment receipt's session, a refund receipt's refund, a notice's event and owner): one mail of a kind each. */
  source: string;
  /** None for an operator's mail. */
  merchantId: string | null;
  livemode: boolean;
  language: string;
  recipient: string;
  subject: string;
  text: string;
  html: string;
  headers: Readonly<Record<string, string>>;
}

/** A mail as the sender takes it. */
export interface DueMail {
  id: string;
  recipient: string;
  subject: string;
  text_body: string;
  html_body: string;
  headers: Record<string, string>;
  attempts: number;
}

/** What an invitation's or a reset's bodies become once sent, given up or dropped: their one-use link is not kept. */
const LINK_NOT_KEPT = '[not kept: this mail held a one-use link]';

/** The kinds whose bodies carry a one-use link. */
const LINK_KINDS = "('invitation', 'password_reset')";

/** A mail written: its id, and whether it waits to be sent or was dropped (its address had its hour's allowance). */
export interface Enqueued {
  id: string;
  status: 'pending' | 'dropped';
}

/** The SET items that drop a one-use link's bodies from a mail done with (its kind's bodies carry the link). */
const FORGET_LINK = `text_body = CASE WHEN kind IN ${LINK_KINDS} THEN '${LINK_NOT_KEPT}' ELSE text_body END,
  html_body = CASE WHEN kind IN ${LINK_KINDS} THEN '${LINK_NOT_KEPT}' ELSE html_body END`;

/** Due mails, each held against other senders for a lease ($2 seconds): tried again when its sender dies. */
const CLAIM = leaseClaim({
  table: 'mails',
  key: 'id',
  where: "status = 'pending' AND next_attempt_at <= now()",
  orderBy: 'next_attempt_at',
  limit: '$1',
  set: 'next_attempt_at = now() + make_interval(secs => $2)',
  returning: 'id, recipient, subject, text_body, html_body, headers, attempts',
});

/** Mails the server accepted ($1, their Message-IDs $2), still pending: sent, a one-use link's bodies dropped. */
const MARK_SENT = `UPDATE mails SET status = 'sent', attempts = attempts + 1, sent_at = now(), message_id = accepted.message_id, last_error = '', ${FORGET_LINK}
  FROM unnest($1::text[], $2::text[]) AS accepted(id, message_id)
  WHERE mails.id = accepted.id AND mails.status = 'pending'`;

/** One batch of the retention sweep: mails sent, given up or dropped before $1, oldest first. */
const PURGE_DONE = purgeBatch({ table: 'mails', key: 'id', where: "status <> 'pending' AND created_at < $1", orderBy: 'created_at', limit: '$2' });

/** Takes the locks of the addresses $1 (any case), in one order whatever the batch, so two batches never wait on each other in a circle. */
const LOCK_RECIPIENTS = `SELECT pg_advisory_xact_lock(key) FROM (
    SELECT DISTINCT hashtext('mail-recipient:' || lower(recipient)) AS key FROM unnest($1::text[]) AS recipient ORDER BY key
  ) AS keys`;

/**
 * Writes mails, in the order given, under their addresses' locks: each is
 * dropped when its address had $13 mails (not dropped ones) in the hour before
 * it, the mails of this batch before it to the same address counted as well
 * (those that are new: not a kind and source written already, nor one seen
 * earlier in the batch). A dropped invitation's or reset's bodies keep no link.
 */
const ENQUEUE = `WITH batch AS (
    SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::boolean[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::timestamptz[])
      WITH ORDINALITY AS b(id, kind, source, merchant_id, livemode, language, recipient, subject, text_body, html_body, headers, due_at, ord)
  ), fresh AS (
    SELECT batch.*, row_number() OVER (PARTITION BY kind, source ORDER BY ord) = 1
      AND NOT EXISTS (SELECT 1 FROM mails WHERE mails.kind = batch.kind AND mails.source = batch.source) AS is_new
    FROM batch
  ), decided AS (
    SELECT fresh.*, CASE WHEN
        (SELECT count(*) FROM mails WHERE lower(mails.recipient) = lower(fresh.recipient) AND mails.created_at > fresh.due_at - interval '1 hour' AND mails.status <> 'dropped')
        + count(*) FILTER (WHERE is_new) OVER (PARTITION BY lower(recipient) ORDER BY ord ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)
        >= $13 THEN 'dropped' ELSE 'pending' END AS status
    FROM fresh
  )
  INSERT INTO mails (id, kind, source, merchant_id, livemode, language, recipient, subject, text_body, html_body, headers, next_attempt_at, created_at, status)
  SELECT id, kind, source, merchant_id, livemode, language, recipient, subject,
    CASE WHEN status = 'dropped' AND kind IN ${LINK_KINDS} THEN '${LINK_NOT_KEPT}' ELSE text_body END,
    CASE WHEN status = 'dropped' AND kind IN ${LINK_KINDS} THEN '${LINK_NOT_KEPT}' ELSE html_body END,
    headers::jsonb, due_at, due_at, status
  FROM decided ORDER BY ord
  ON CONFLICT (kind, source) DO NOTHING RETURNING id, status`;

/** Mails written in one transaction at most. */
const MAX_ENQUEUED_AT_ONCE = 100;

/** The mails a batch of the sender may hold: one statement marks them all sent. */
const MAX_SENT_AT_ONCE = 500;

/** A mail to write, its id chosen and when it is due. */
interface Enqueuing {
  id: string;
  mail: NewMail;
  at: Date;
}

export class MailQueueRepository {
  private readonly enqueued: GroupCommit<Enqueuing, Enqueued | undefined>;
  private readonly sent: GroupCommit<{ id: string; messageId: string }, undefined>;

  /** `perRecipientPerHour`: the mails one address may get in any hour (D29); the rest are dropped. */
  constructor(
    private readonly pool: Pool,
    private readonly perRecipientPerHour: number,
  ) {
    // A transaction at a time; the mails asked for meanwhile go in the next.
    this.enqueued = new GroupCommit({
      name: 'mails enqueued',
      maxBatch: MAX_ENQUEUED_AT_ONCE,
      inFlight: 1,
      run: async (batch) => this.enqueueAll(batch),
    });
    // A statement at a time; what the server accepts meanwhile goes in the next.
    this.sent = new GroupCommit({
      name: 'mails sent',
      maxBatch: MAX_SENT_AT_ONCE,
      inFlight: 1,
      run: async (sent) => {
        await this.pool.query({
          name: 'mails-sent',
          text: MARK_SENT,
          values: [sent.map((mail) => mail.id), sent.map((mail) => mail.messageId)],
        });
        return sent.map(() => undefined);
      },
    });
  }

  /**
   * Writes `mail`, due at `at`, unless its kind and source have one already
   * (then undefined). Replicas share each address's count: it is read and the
   * mail written in one transaction holding the address's lock. The mails
   * asked for while a transaction runs are written together by the next
   * (GroupCommit, packages/db): one transaction for many, not one each.
   */
  async enqueue(mail: NewMail, at: Date): Promise<Enqueued | undefined> {
    return this.enqueued.add({ id: newId('ml'), mail, at });
  }

  private async enqueueAll(batch: readonly Enqueuing[]): Promise<(Enqueued | undefined)[]> {
    const mails = batch.map((item) => item.mail);
    const written = await withTransaction(this.pool, async (tx) => {
      await tx.query({ name: 'mail-recipient-locks', text: LOCK_RECIPIENTS, values: [mails.map((mail) => mail.recipient)] });
      const result = await tx.query<Enqueued>({
        name: 'mails-enqueue',
        text: ENQUEUE,
        values: [
          batch.map((item) => item.id),
          mails.map((mail) => mail.kind),
          mails.map((mail) => mail.source),
          mails.map((mail) => mail.merchantId),
          mails.map((mail) => mail.livemode),
          mails.map((mail) => mail.language),
          mails.map((mail) => mail.recipient),
          mails.map((mail) => mail.subject),
          mails.map((mail) => mail.text),
          mails.map((mail) => mail.html),
          mails.map((mail) => JSON.stringify(mail.headers)),
          batch.map((item) => item.at),
          this.perRecipientPerHour,
        ],
      });
      return new Map(result.rows.map((row) => [row.id, row]));
    });
    return batch.map((item) => written.get(item.id));
  }

  /** The id of the mail of `kind` and `source`, if written. */
  async idOf(kind: MailKind, source: string): Promise<string | undefined> {
    const result = await this.pool.query<{ id: string }>({ name: 'mail-id-of', text: 'SELECT id FROM mails WHERE kind = $1 AND source = $2', values: [kind, source] });
    return result.rows[0]?.id;
  }

  /** Up to `limit` due mails, each held for `leaseSeconds` against other senders. */
  async claimDue(limit: number, leaseSeconds: number): Promise<DueMail[]> {
    return (await this.pool.query<DueMail>({ name: 'mail-claim', text: CLAIM, values: [limit, leaseSeconds] })).rows;
  }

  /**
   * Sent: an invitation's or a reset's bodies lose their link in the same
   * statement. Mails the server accepted meanwhile are marked together, one
   * statement for them all (GroupCommit, packages/db); each caller is answered
   * once its mail's statement has committed.
   */
  async markSent(id: string, messageId: string): Promise<void> {
    await this.sent.add({ id, messageId: messageId.slice(0, 500) });
  }

  /**
   * A failed attempt: tried again in `delaySeconds`, or given up (failed) when
   * `delaySeconds` is undefined (an invitation's or a reset's link then not kept).
   */
  async markFailedAttempt(id: string, error: string, delaySeconds: number | undefined): Promise<void> {
    await this.pool.query({
      name: 'mail-failed-attempt',
      text: `UPDATE mails SET attempts = attempts + 1, last_error = $2,
               status = CASE WHEN $3::float8 IS NULL THEN 'failed' ELSE 'pending' END,
               next_attempt_at = CASE WHEN $3::float8 IS NULL THEN next_attempt_at ELSE now() + make_interval(secs => $3::float8) END,
               text_body = CASE WHEN $3::float8 IS NULL AND kind IN ${LINK_KINDS} THEN '${LINK_NOT_KEPT}' ELSE text_body END,
               html_body = CASE WHEN $3::float8 IS NULL AND kind IN ${LINK_KINDS} THEN '${LINK_NOT_KEPT}' ELSE html_body END
             WHERE id = $1 AND status = 'pending'`,
      values: [id, error.slice(0, 500), delaySeconds ?? null],
    });
  }

  /** Deletes up to `limit` mails sent, given up or dropped before `before` (replicas share the work); how many went. */
  async deleteDoneBefore(before: Date, limit: number): Promise<number> {
    const result = await this.pool.query({
      name: 'mail-delete-done',
      text: PURGE_DONE,
      values: [before, limit],
    });
    return result.rowCount ?? 0;
  }
}
