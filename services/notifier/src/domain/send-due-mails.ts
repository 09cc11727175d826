/**
 * Sending the mail queue (D20): each due mail goes to the mail server; a mail the
 * server accepted is marked sent, one it did not is put off by a growing
 * wait and tried again, up to its last attempt. Nothing else waits on this:
 * a mail server that is down delays mails, never a payment.
 */
import { backoffDelay, type GrowingWait } from '@gateway/backoff';
import { inBatches } from '@gateway/db';
import { counter, describeError, type Logger } from '@gateway/observability';
import type { DueMail, MailQueueRepository } from '../db/mail-queue.repository.js';
import type { MailTransport } from '../mail/smtp-transport.js';

/** Mail attempts by outcome: sent, retry (failed, tried again later), failed (its last attempt failed). */
const mailAttempts = counter('gateway_mail_attempts_total', 'Attempts to hand a mail to the mail server, by outcome (sent, retry, failed).', ['outcome']);

export interface SendDeps {
  mails: MailQueueRepository;
  transport: MailTransport;
  /** Waits in seconds after each failed attempt. */
  retry: GrowingWait;
  maxAttempts: number;
  batch: number;
  leaseSeconds: number;
  log: Logger;
}

/** The wait before the next attempt of a mail that has failed `attempts` times, or undefined when it is given up. */
export function nextAttemptDelay(retry: GrowingWait, maxAttempts: number, attempts: number): number | undefined {
  return attempts >= maxAttempts ? undefined : backoffDelay(retry, attempts - 1);
}

/** Sends every due mail, a batch at a time, until none is due; answers how many were sent. */
export async function sendDueMails(deps: SendDeps): Promise<number> {
  let sent = 0;
  await inBatches({ size: deps.batch }, async () => {
    const due = await deps.mails.claimDue(deps.batch, deps.leaseSeconds);
    const outcomes = await Promise.all(due.map((mail) => sendOne(deps, mail)));
    sent += outcomes.filter(Boolean).length;
    // A batch with a failure stops the run (counted as short): the server is likely down, and the next run comes soon enough.
    return outcomes.includes(false) ? 0 : due.length;
  });
  return sent;
}

async function sendOne(deps: SendDeps, mail: DueMail): Promise<boolean> {
  try {
    const { messageId } = await deps.transport.send({
      to: mail.recipient,
      subject: mail.subject,
      text: mail.text_body,
      html: mail.html_body,
      headers: mail.headers,
    });
    await deps.mails.markSent(mail.id, messageId);
    mailAttempts.inc({ outcome: 'sent' });
    deps.log.info({ mailId: mail.id, attempts: mail.attempts + 1 }, 'mail sent');
    return true;
  } catch (err) {
    const attempts = mail.attempts + 1;
    const delay = nextAttemptDelay(deps.retry, deps.maxAttempts, attempts);
    const error = describeError(err);
    await deps.mails.markFailedAttempt(mail.id, error.message, delay);
    mailAttempts.inc({ outcome: delay === undefined ? 'failed' : 'retry' });
    deps.log.warn({ mailId: mail.id, attempts, err: error, retryInSeconds: delay }, delay === undefined ? 'mail given up after its last attempt' : 'mail not sent; trying again later');
    return false;
  }
}
