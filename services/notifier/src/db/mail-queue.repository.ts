/**
 * The mail queue (D20): the mails to send, kept in the table `mails`. A mail
 * is written once, keyed on its kind and what it is about; the sender claims
 * due ones with a lease (packages/db's leaseClaim: its next attempt time
 * pushed past the lease), so replicas share them
 * and one that dies mid-send leaves its mails to the others, and no database
 * connection is held while a mail server answers. Once an invitation or a
 * password reset is sent or given up, its bodies are replaced by a note: the
 * mail queue keeps no live one-use link.
 */
import { newId } from '@gateway/contracts';
import { leaseClaim, purgeBatch, type Pool } from '@gateway/db';
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
  recipientName: string;
  subject: string;
  text: string;
  html: string;
  headers: Readonly<Record<string, string>>;
}

/** A mail as the sender takes it. */
export interface DueMail {
  id: string;
  recipient: string;
  recipient_name: string;
  subject: string;
  text_body: string;
  html_body: string;
  headers: Record<string, string>;
  attempts: number;
}

/** What an invitation's or a reset's bodies become once sent or given up: their one-use link is not kept. */
const LINK_NOT_KEPT = '[not kept: this mail held a one-use link]';

/** The SET items that drop a one-use link's bodies from a mail done with (its kind's bodies carry the link). */
const FORGET_LINK = `text_body = CASE WHEN kind IN ('invitation', 'password_reset') THEN '${LINK_NOT_KEPT}' ELSE text_body END,
  html_body = CASE WHEN kind IN ('invitation', 'password_reset') THEN '${LINK_NOT_KEPT}' ELSE html_body END`;

/** Due mails, each held against other senders for a lease ($2 seconds): tried again when its sender dies. */
const CLAIM = leaseClaim({
  table: 'mails',
  key: 'id',
  where: "status = 'pending' AND next_attempt_at <= now()",
  orderBy: 'next_attempt_at',
  limit: '$1',
  set: 'next_attempt_at = now() + make_interval(secs => $2)',
  returning: 'id, recipient, recipient_name, subject, text_body, html_body, headers, attempts',
});

/** One batch of the retention sweep: mails sent or given up before $1, oldest first. */
const PURGE_DONE = purgeBatch({ table: 'mails', key: 'id', where: "status <> 'pending' AND created_at < $1", orderBy: 'created_at', limit: '$2' });

export class MailQueueRepository {
  constructor(private readonly pool: Pool) {}

  /** Writes `mail`, due now, unless its kind and source have one already; its id, or undefined when it was there. */
  async enqueue(mail: NewMail, at: Date): Promise<string | undefined> {
    const result = await this.pool.query<{ id: string }>({
      name: 'mail-enqueue',
      text: `INSERT INTO mails (id, kind, source, merchant_id, livemode, language, recipient, recipient_name, subject, text_body, html_body, headers, next_attempt_at, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13)
             ON CONFLICT (kind, source) DO NOTHING RETURNING id`,
      values: [newId('ml'), mail.kind, mail.source, mail.merchantId, mail.livemode, mail.language, mail.recipient, mail.recipientName, mail.subject, mail.text, mail.html, JSON.stringify(mail.headers), at],
    });
    return result.rows[0]?.id;
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

  /** Sent: an invitation's or a reset's bodies lose their link in the same statement. */
  async markSent(id: string, messageId: string): Promise<void> {
    await this.pool.query({
      name: 'mail-sent',
      text: `UPDATE mails SET status = 'sent', attempts = attempts + 1, sent_at = now(), message_id = $2, last_error = '', ${FORGET_LINK} WHERE id = $1 AND status = 'pending'`,
      values: [id, messageId.slice(0, 500)],
    });
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
               text_body = CASE WHEN $3::float8 IS NULL AND kind IN ('invitation', 'password_reset') THEN '${LINK_NOT_KEPT}' ELSE text_body END,
               html_body = CASE WHEN $3::float8 IS NULL AND kind IN ('invitation', 'password_reset') THEN '${LINK_NOT_KEPT}' ELSE html_body END
             WHERE id = $1 AND status = 'pending'`,
      values: [id, error.slice(0, 500), delaySeconds ?? null],
    });
  }

  /** Deletes up to `limit` mails sent or given up before `before` (replicas share the work); how many went. */
  async deleteDoneBefore(before: Date, limit: number): Promise<number> {
    const result = await this.pool.query({
      name: 'mail-delete-done',
      text: PURGE_DONE,
      values: [before, limit],
    });
    return result.rowCount ?? 0;
  }
}
