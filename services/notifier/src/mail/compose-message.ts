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

/** `mail` (text and HTML given as strings) as one message. */
export async function composeMessage(mail: Mail.Options): Promise<ComposedMessage> {
  const root = new MailComposer(mail).compile();
  const raw = await root.build();
  const envelope = root.getEnvelope();
  return { raw, messageId: root.messageId(), envelope: { from: envelope.from || '', to: envelope.to } };
}
