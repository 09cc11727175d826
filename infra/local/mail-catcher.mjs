#!/usr/bin/env node
// The local mail catcher (D20): a real SMTP server on loopback that takes every
// message the system sends and keeps it as <dir>/<time>-<id>.eml (open it with
// any mail program), printing where. `make up` starts it on 127.0.0.1:1025
// unless SMTP_URL is set; by hand:
//
//   node infra/local/mail-catcher.mjs --port 1025 --dir .local/mail
//
// Built on the test suite's catcher (packages/testkit, smtp-server). It asks no
// password and offers no TLS: it listens on 127.0.0.1 only. Each mail is its user's
// alone (0600, in a folder 0700): receipts and reset links are in them.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { privateFolder, writePrivateFile } from '@gateway/system';
import { MailCatcher } from '@gateway/testkit/mail-catcher';

const { values } = parseArgs({ options: { port: { type: 'string', default: '1025' }, dir: { type: 'string', default: '.local/mail' } } });
const dir = path.resolve(values.dir);
privateFolder(dir);

/** 20261127T024512Z: sorts as it reads. */
const stamp = (at) => at.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');

const catcher = await MailCatcher.start({
  port: Number(values.port),
  onMail: (mail) => {
    const file = path.join(dir, `${stamp(mail.receivedAt)}-${randomBytes(4).toString('hex')}.eml`);
    writePrivateFile(file, mail.raw);
    console.log(`mail to ${mail.envelope.to.join(', ')}: "${mail.parsed.subject ?? ''}" → ${path.relative(process.cwd(), file)}`);
  },
});
console.log(`mail catcher listening on ${catcher.url}, keeping mails in ${path.relative(process.cwd(), dir) || '.'}`);
const stop = async () => {
  await catcher.stop();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
