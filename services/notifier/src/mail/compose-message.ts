/**
 * A mail's message as one buffer, ready for the SMTP exchange: composed and
 * encoded by nodemailer's MailComposer (its headers, Message-ID, Date, parts
 * and their encodings, as nodemailer would send them), built whole in memory
 * and handed to the SMTP pool as one piece. Streamed by the transport
 * instead, each piece of the message was a socket write of its own (11 per
 * receipt, against 4).
 */
import MailComposer from 'nodemailer/lib/mail-composer';
import type Mail from 'nodemailer/lib/mailer';

export interface ComposedMessage {
  /** The message as it goes after DATA (the SMTP exchange stuffs its dots). */
  raw: Buffer;
  messageId: string;
  envelope: { from: string; to: string[] };
}

/** A mail as it leaves: to an address alone, no name beside it (a buyer's name is their typing, D29). */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  headers: Readonly<Record<string, string>>;
}

/**
 * `mail` from `from` as one message. `fixed` sets what is new in every sent
 * mail (its Message-ID, Date and MIME boundary), for a test to compare.
 */
export async function composeMessage(from: Mail.Address, mail: OutgoingMail, fixed: Pick<Mail.Options, 'messageId' | 'date'> & { baseBoundary?: string } = {}): Promise<ComposedMessage> {
  const options = {
    from,
    // As an address object, never a string nodemailer would parse as a list.
    to: { name: '', address: mail.to },
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    headers: { ...mail.headers },
    // Everything a mail holds is in its row: nothing is read from a file or a URL.
    disableFileAccess: true,
    disableUrlAccess: true,
    ...fixed,
  } as Mail.Options;
  const root = new MailComposer(options).compile();
  const raw = await root.build();
  const envelope = root.getEnvelope();
  return { raw, messageId: root.messageId(), envelope: { from: envelope.from || '', to: envelope.to } };
}
