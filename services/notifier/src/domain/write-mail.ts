/**
 * Writing a mail to the mail queue, the one way every kind goes in. An
 * address that had its hour's allowance (MAIL_PER_RECIPIENT_PER_HOUR, D29)
 * gets the mail written as dropped: never sent, counted, and logged with the
 * address's domain only, so that a stranger who names one address many times
 * cannot flood it, nor put it in our logs.
 */
import { counter, type Logger } from '@gateway/observability';
import type { Enqueued, MailQueueRepository, NewMail } from '../db/mail-queue.repository.js';

/** Mails dropped because their address had its hour's allowance, by kind. */
const mailsDropped = counter('gateway_mails_dropped_total', 'Mails dropped, never sent, because their address had MAIL_PER_RECIPIENT_PER_HOUR mails in the hour, by kind.', ['kind']);

/** The part of an address after its @, which a log may show. */
export function domainOf(address: string): string {
  return address.slice(address.lastIndexOf('@') + 1).toLowerCase();
}

/** Writes `mail`, due now; what was written (pending or dropped), or undefined when its kind and source had a mail already. */
export async function writeMail(mails: MailQueueRepository, log: Logger, mail: NewMail): Promise<Enqueued | undefined> {
  const written = await mails.enqueue(mail, new Date());
  if (written?.status === 'dropped') {
    mailsDropped.inc({ kind: mail.kind });
    log.warn({ mailId: written.id, kind: mail.kind, recipientDomain: domainOf(mail.recipient) }, 'mail dropped: its address had MAIL_PER_RECIPIENT_PER_HOUR mails in the hour');
  }
  return written;
}
