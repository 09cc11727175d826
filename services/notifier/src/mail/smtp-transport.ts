/**
 * The one outside party of the notifier (D20): a mail server, reached over
 * SMTP at SMTP_URL through nodemailer. smtp:// upgrades with STARTTLS when the
 * server offers it; smtps:// speaks TLS from the start. Messages never load
 * files or URLs: everything a mail holds is in its row of the mail queue.
 */
import nodemailer from 'nodemailer';
import { checkMailbox } from '../domain/header-safety.js';
import { composeMessage, type OutgoingMail } from './compose-message.js';

export interface MailTransport {
  /** Sends `mail`; resolves with the Message-ID once the server accepted it, rejects when it did not. */
  send(mail: OutgoingMail): Promise<{ messageId: string }>;
  close(): void;
}

export interface SmtpSettings {
  smtpUrl: string;
  mailFrom: string;
  smtpTimeoutMs: number;
}

/** A pooled SMTP connection to `smtpUrl`, sending as `mailFrom`. */
export function smtpTransport(settings: SmtpSettings): MailTransport {
  const url = new URL(settings.smtpUrl);
  const secure = url.protocol === 'smtps:';
  const from = checkMailbox(settings.mailFrom);
  if (!from) throw new Error('MAIL_FROM is not a mailbox');
  const transporter = nodemailer.createTransport({
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port === '' ? (secure ? 465 : 587) : Number(url.port),
    secure,
    ...(url.username !== '' && { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } }),
    pool: true,
    maxConnections: 4,
    connectionTimeout: settings.smtpTimeoutMs,
    greetingTimeout: settings.smtpTimeoutMs,
    socketTimeout: settings.smtpTimeoutMs,
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  return {
    async send(mail) {
      const message = await composeMessage(from, mail);
      await transporter.sendMail({ envelope: message.envelope, raw: message.raw, disableFileAccess: true, disableUrlAccess: true });
      return { messageId: message.messageId };
    },
    close() {
      transporter.close();
    },
  };
}
