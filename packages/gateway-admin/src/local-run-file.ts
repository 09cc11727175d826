/**
 * The settings `make up` leaves for gateway-admin in its folder
 * (.local/gateway-admin.json): the broker URL of the operators' user and the
 * operator key file. Whoever can write that file chooses which broker the
 * operator's signed commands go to and which key signs them, so it is taken
 * only when the user running gateway-admin owns it and nobody else may
 * write it (D29).
 */
import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';

/** A settings file that is not safe to take: what is wrong and what to do, for the operator. */
export class UnsafeConfigFile extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnsafeConfigFile';
  }
}

/**
 * The settings `file` holds, by name, among `names`; none when there is no
 * such file or it is not JSON. Throws UnsafeConfigFile when the file is not
 * the user's or others may write it: its owner and mode are those of the file
 * opened, so a file swapped in after the check is not read.
 */
export function localRunSettings<N extends string>(file: string, names: readonly N[]): Partial<Record<N, string>> {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return {};
  }
  try {
    const { uid, mode } = fstatSync(fd);
    const me = process.getuid?.();
    const fix = `fix it (chown, chmod 600) or remove it and run make up again, or give AMQP_URL, BROKER_PREFIX and OPERATOR_KEY_FILE yourself`;
    if (me !== undefined && uid !== me) throw new UnsafeConfigFile(`${file} is not yours (its owner is uid ${uid}): gateway-admin takes its broker user and operator key only from a file of yours; ${fix}`);
    if ((mode & 0o022) !== 0) throw new UnsafeConfigFile(`${file} is mode ${(mode & 0o777).toString(8)}: others can write it, and so choose where your signed commands go; ${fix}`);
    let written: Record<string, unknown>;
    try {
      written = JSON.parse(readFileSync(fd, 'utf8')) as Record<string, unknown>;
    } catch {
      return {};
    }
    return Object.fromEntries(names.flatMap((name) => (typeof written[name] === 'string' ? [[name, written[name]]] : []))) as Partial<Record<N, string>>;
  } finally {
    closeSync(fd);
  }
}
