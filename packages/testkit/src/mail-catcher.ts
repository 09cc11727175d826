/**
 * A real SMTP server that keeps every message it is given (D20): tests read
 * the mails the system sent, headers and parts; `make up` runs one that also
 * writes each to a folder (infra/local/mail-catcher.mjs). It accepts any
 * sender and recipient, asks no password and offers no TLS: it listens on
 * loopback only.
 */
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A message as it arrived: the envelope, the raw text, and its parsed form. */
export interface CaughtMail {
  /** MAIL FROM and RCPT TO of the SMTP envelope. */
  readonly envelope: { from: string; to: readonly string[] };
  /** The message as sent, headers and body. */
  readonly raw: string;
  /** The raw header block (up to the first empty line), unfolded as sent: what a header-injection test searches. */
  readonly headerBlock: string;
  readonly parsed: ParsedMail;
  readonly receivedAt: Date;
}

interface MailCatcherOptions {
  /** 0 (or none) for a free port. */
  port?: number;
  host?: string;
  /** Called with each message once it is kept (to write it to a file, say). */
  onMail?: (mail: CaughtMail) => void | Promise<void>;
}

export class MailCatcher {
  readonly mails: CaughtMail[] = [];
  private server: SMTPServer | undefined;
  private boundPort = 0;

  private constructor(private readonly options: MailCatcherOptions) {}

  /** Starts a catcher and waits until it listens. */
  static async start(options: MailCatcherOptions = {}): Promise<MailCatcher> {
    const catcher = new MailCatcher(options);
    await catcher.listen(options.port ?? 0);
    return catcher;
  }

  get port(): number {
    return this.boundPort;
  }

  /** The SMTP_URL a sender reaches this catcher at. */
  get url(): string {
    return `smtp://${this.options.host ?? '127.0.0.1'}:${this.boundPort}`;
  }

  /** Stops listening (a mail server gone away); `resume` listens again on the same port. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  async resume(): Promise<void> {
    if (!this.server) await this.listen(this.boundPort);
  }

  /** The mails sent to `address` so far. */
  to(address: string): CaughtMail[] {
    return this.mails.filter((mail) => mail.envelope.to.includes(address.toLowerCase()));
  }

  /** Waits until `count` mails match `matches` and answers them; rejects after `timeoutMs`. */
  async waitFor(matches: (mail: CaughtMail) => boolean, count = 1, timeoutMs = 15_000): Promise<CaughtMail[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.mails.filter(matches);
      if (found.length >= count) return found;
      if (Date.now() > deadline) throw new Error(`${found.length} of ${count} mails caught within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  private async listen(port: number): Promise<void> {
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['AUTH', 'STARTTLS'],
      logger: false,
      size: 10 * 1024 * 1024,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          const envelope = {
            from: session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address,
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
          };
          simpleParser(raw)
            .then(async (parsed) => {
              const end = raw.search(/\r?\n\r?\n/);
              const mail: CaughtMail = { envelope, raw, headerBlock: end < 0 ? raw : raw.slice(0, end), parsed, receivedAt: new Date() };
              this.mails.push(mail);
              await this.options.onMail?.(mail);
              callback();
            })
            .catch((err: unknown) => callback(err instanceof Error ? err : new Error('message not kept')));
        });
      },
    });
    server.on('error', () => undefined);
    await new Promise<void>((resolve, reject) => {
      const failed = (err: Error) => reject(err);
      server.server.once('error', failed);
      server.listen(port, this.options.host ?? '127.0.0.1', () => {
        server.server.off('error', failed);
        resolve();
      });
    });
    const address = server.server.address();
    this.boundPort = typeof address === 'object' && address !== null ? address.port : port;
    this.server = server;
  }
}
