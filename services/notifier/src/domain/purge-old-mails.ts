/**
 * The retention sweep: mails sent, given up or dropped, older than MAIL_RETENTION_DAYS,
 * are deleted (they hold buyers' addresses), a batch per statement
 * so no lock is held long, until none is left. A pending mail is kept however
 * old: it has still to go.
 */
import { inBatches } from '@gateway/db';
import type { MailQueueRepository } from '../db/mail-queue.repository.js';

export interface RetentionDeps {
  mails: MailQueueRepository;
  retentionDays: number;
  batch: number;
  /** True once the service is stopping: the sweep ends after its current batch. */
  stopping: () => boolean;
}

/** Deletes what is past retention; how many mails went. */
export async function purgeOldMails(deps: RetentionDeps, now = Date.now()): Promise<number> {
  const before = new Date(now - deps.retentionDays * 86_400_000);
  return inBatches({ size: deps.batch, stopping: deps.stopping }, () => deps.mails.deleteDoneBefore(before, deps.batch));
}
