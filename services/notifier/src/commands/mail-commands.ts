/**
 * The notifier's commands (D20): the dashboard asks for a person's invitation
 * or password reset; the mail is written to the outbox, once per kind and
 * reference (a command sent again writes nothing more), and the answer says
 * so; the sender sends it. An address that could carry a header is refused.
 */
import type { CommandReply, CommandRequest } from '@gateway/contracts';
import type { CommandHandlers } from '@gateway/messaging';
import { validationError } from '@gateway/problem';
import type { MailKind, MailRepository, NewMail } from '../db/mail.repository.js';
import { checkAddress } from '../domain/header-safety.js';
import { renderInvitation, renderPasswordReset } from '../domain/people-mails.js';
import type { RenderedMail } from '../domain/mail-layout.js';
import { MAIL_HEADERS } from '../messaging/receipt-events.js';

export interface MailCommandDeps {
  mails: MailRepository;
  /** Called once a mail was written, to send it at once. */
  afterWrite: () => void;
}

/** The address of a person mail, or a refusal: nothing else reaches the To header. */
function recipientOf(email: string): string {
  const address = checkAddress(email);
  if (address === undefined) throw validationError([{ field: 'email', code: 'invalid', message: 'Give a valid email address.' }]);
  return address;
}

async function write(deps: MailCommandDeps, kind: MailKind, request: { reference: string; email: string; language: string }, merchantId: string | null, rendered: RenderedMail): Promise<CommandReply<'mail.invitation'>> {
  const mail: NewMail = {
    kind,
    source: request.reference,
    merchantId,
    livemode: false,
    language: request.language,
    recipient: recipientOf(request.email),
    recipientName: '',
    subject: rendered.subject,
    text: rendered.text,
    html: rendered.html,
    headers: MAIL_HEADERS,
  };
  const id = await deps.mails.enqueue(mail, new Date());
  if (id !== undefined) {
    deps.afterWrite();
    return { mail_id: id, queued: true };
  }
  return { mail_id: (await deps.mails.idOf(kind, request.reference)) ?? '', queued: false };
}

export function mailCommandHandlers(deps: MailCommandDeps): CommandHandlers {
  return {
    'mail.invitation': async (request: CommandRequest<'mail.invitation'>) => {
      recipientOf(request.email);
      const rendered = renderInvitation({ language: request.language, merchantName: request.merchant_name, role: request.role, link: request.link, expiresAt: new Date(request.expires_at) });
      return { body: await write(deps, 'invitation', request, request.merchant_id, rendered) };
    },
    'mail.password_reset': async (request: CommandRequest<'mail.password_reset'>) => {
      recipientOf(request.email);
      const rendered = renderPasswordReset({ language: request.language, door: request.door, email: request.email, link: request.link, expiresAt: new Date(request.expires_at) });
      return { body: await write(deps, 'password_reset', request, request.merchant_id ?? null, rendered) };
    },
  };
}
