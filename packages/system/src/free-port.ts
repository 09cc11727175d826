/**
 * Ports for the processes a launcher starts, each reserved so that no other
 * process of this checkout takes it meanwhile: the test harness, the image
 * smoke test and their parallel runs pick from the same reservations.
 */
import { closeSync, openSync, rmSync, statSync, utimesSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { repoRoot } from './launcher.js';
import { PRIVATE_FILE_MODE, privateFolder } from './private-files.mjs';

/** Where ports handed to processes are reserved, one file per port, across every process of this checkout. */
const portReservations = join(repoRoot, '.local', 'ports');
/** Reservations older than this belong to a run that died without giving them back. */
const STALE_RESERVATION_MS = 2 * 3600 * 1000;

/**
 * A port no other process of this checkout holds and nothing listens on, for
 * a process to listen on; give it back with releasePorts. Test files run in
 * parallel processes: a port that one found free (bind and close) another
 * could find free too before the first's process listened, and its test would
 * then talk to the other's process. So each port is reserved by creating its
 * file exclusively, and picked outside the kernel's ephemeral range (32768
 * and up) that port 0 draws from.
 */
export async function freePort(): Promise<number> {
  privateFolder(portReservations);
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const file = join(portReservations, String(port));
    try {
      closeSync(openSync(file, 'wx', PRIVATE_FILE_MODE));
    } catch {
      // Taken, unless its holder died long ago.
      try {
        if (Date.now() - statSync(file).mtimeMs < STALE_RESERVATION_MS) continue;
        utimesSync(file, new Date(), new Date());
      } catch {
        continue;
      }
    }
    if (await listenable(port)) return port;
  }
}

/** Whether nothing listens on `port` (of any address), by binding it once. */
function listenable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, () => server.close(() => resolve(true)));
  });
}

/** Gives back the reservations of `ports`. */
export function releasePorts(ports: Iterable<number>): void {
  for (const port of ports) rmSync(join(portReservations, String(port)), { force: true });
}
