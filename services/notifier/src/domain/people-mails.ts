/**
 * The mails to the people of the dashboard and the console (D20): the
 * dashboard asks for a person's invitation or password reset, each carrying
 * its one-use link (the mail's whole purpose); the mail is written to the
 * mail queue once per kind and reference (a command sent again writes nothing
 * more), and the answer says so; the sender sends it. An address that could
 * carry a header is refused. The owners' notices are people mails too
 * (owner-notices.ts).
 */
import type { CommandReply, CommandRequest } from '@gateway/contracts';
import { chooseLanguage, type Language } from '@gateway/i18n';
import type { Logger } from '@gateway/observability';
import { validationError } from '@gateway/problem';
import type { MailKind, MailQueueRepository } from '../db/mail-queue.repository.js';
import { renderInvitation, renderPasswordReset } from '../views/people-mails.js';
import { checkAddress } from './header-safety.js';
import { queuedMail, type RenderedMail } from './queued-mail.js';
import { writeMail } from './write-mail.js';

export type PeopleMailKind = 'invitation' | 'password_reset' | 'endpoint_disabled_notice' | 'refund_resolved_notice';

/** An invitation to a merchant's dashboard, as its mail tells it. */
export interface Invitation {
  language: Language;
  merchantName: string;
  role: 'owner' | 'developer' | 'viewer';
  link: string;
  expiresAt: Date;
}

/** A password reset of the dashboard or the console, as its mail tells it. */
export interface PasswordReset {
  language: Language;
  door: 'dashboard' | 'ops';
  email: string;
  link: string;
  expiresAt: Date;
}

export interface PeopleMailDeps {
  mails: MailQueueRepository;
  log: Logger;
  /** Called once a mail was written, to send it at once. */
  afterWrite: () => void;
}

/** A person mail's language: one of ours, else French (the gateway's first language). */
export function peopleLanguage(language: string | undefined): Language {
  return chooseLanguage(language, undefined, 'fr');
}

/** mail.invitation: the invitation's mail, written once per reference. */
export async function mailInvitation(deps: PeopleMailDeps, request: CommandRequest<'mail.invitation'>): Promise<CommandReply<'mail.invitation'>> {
  recipientOf(request.email);
  const rendered = renderInvitation({ language: request.language, merchantName: request.merchant_name, role: request.role, link: request.link, expiresAt: new Date(request.expires_at) });
  return write(deps, 'invitation', request, request.merchant_id, rendered);
}

/** mail.password_reset: the reset's mail, written once per reference. */
export async function mailPasswordReset(deps: PeopleMailDeps, request: CommandRequest<'mail.password_reset'>): Promise<CommandReply<'mail.password_reset'>> {
  recipientOf(request.email);
  const rendered = renderPasswordReset({ language: request.language, door: request.door, email: request.email, link: request.link, expiresAt: new Date(request.expires_at) });
  return write(deps, 'password_reset', request, request.merchant_id ?? null, rendered);
}

/** The address of a person mail, or a refusal: nothing else reaches the To header. */
function recipientOf(email: string): string {
  const address = checkAddress(email);
  if (address === undefined) throw validationError([{ field: 'email', code: 'invalid', message: 'Give a valid email address.' }]);
  return address;
}

async function write(deps: PeopleMailDeps, kind: MailKind, request: { reference: string; email: string; language: string }, merchantId: string | null, rendered: RenderedMail): Promise<CommandReply<'mail.invitation'>> {
  const mail = queuedMail({ kind, source: request.reference, merchantId, livemode: false, language: request.language, recipient: recipientOf(request.email) }, rendered);
  const written = await writeMail(deps.mails, deps.log, mail);
  if (written !== undefined) {
    if (written.status === 'pending') deps.afterWrite();
    return { mail_id: written.id, queued: true };
  }
  return { mail_id: (await deps.mails.idOf(kind, request.reference)) ?? '', queued: false };
}
