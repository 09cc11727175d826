/**
 * Files of this machine's user alone (D29): what `make up` and the launchers
 * keep on disk (keys, passwords, the demo merchant, logs, caught mails) is
 * written 0600 in folders 0700, on every write, whatever mode an older run
 * or the umask left: logs hold request ids, addresses and emails, and the
 * files beside them keys and passwords.
 *
 * Plain JavaScript on built-in modules only, as keys.mjs: the mail catcher
 * and `make up`'s scripts use it too.
 */
import { chmodSync, closeSync, createWriteStream, fchmodSync, mkdirSync, openSync, writeSync } from 'node:fs';

/** The mode of a file of this user's alone. */
export const PRIVATE_FILE_MODE = 0o600;
/** The mode of a folder of this user's alone. */
const PRIVATE_FOLDER_MODE = 0o700;

/**
 * Makes `dir` (and any missing parent) and leaves it 0700.
 * @param {string} dir
 */
export function privateFolder(dir) {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  chmodSync(dir, PRIVATE_FOLDER_MODE);
}

/**
 * Writes `content` to `file`, 0600 before a byte is written, even when the
 * file was there with another mode.
 * @param {string} file
 * @param {string | Uint8Array} content
 */
export function writePrivateFile(file, content) {
  const fd = openSync(file, 'w', PRIVATE_FILE_MODE);
  try {
    fchmodSync(fd, PRIVATE_FILE_MODE);
    writeSync(fd, typeof content === 'string' ? Buffer.from(content) : content);
  } finally {
    closeSync(fd);
  }
}

/**
 * A stream appending to `file` (a log), 0600 before a byte is written, even
 * when the file was there with another mode.
 * @param {string} file
 * @returns {import('node:fs').WriteStream}
 */
export function privateAppendStream(file) {
  const fd = openSync(file, 'a', PRIVATE_FILE_MODE);
  fchmodSync(fd, PRIVATE_FILE_MODE);
  return createWriteStream(file, { fd });
}
