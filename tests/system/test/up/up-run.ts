/**
 * `make up` (infra/local/up.mjs) as a child process, for the tests that run
 * one: its console read line by line, and a PORT_BASE whose ports are free.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { descriptionOf, repoRoot, SERVICE_NAMES } from '@gateway/system';

const UP = path.join(repoRoot, 'infra', 'local', 'up.mjs');

/** How far above its port make up serves a service's /metrics (METRICS_PORT), on loopback. */
export const METRICS_PORT_OFFSET = 100;

export type Exit = { code: number | null; signal: NodeJS.Signals | null };

/** infra/local/up.mjs as a child process, its console read line by line. */
export class UpRun {
  readonly lines: string[] = [];
  readonly exited: Promise<Exit>;
  readonly child: ChildProcess;
  private readonly waiters = new Set<() => void>();

  constructor(env: NodeJS.ProcessEnv) {
    this.child = spawn(process.execPath, [UP], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
    for (const stream of [this.child.stdout, this.child.stderr]) {
      if (!stream) continue;
      createInterface({ input: stream }).on('line', (line) => {
        this.lines.push(line);
        this.wake();
      });
    }
    this.exited = new Promise((resolve) =>
      this.child.once('exit', (code, signal) => {
        resolve({ code, signal });
        this.wake();
      }),
    );
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** The first line from `from` on that matches `pattern`; throws with the console's end if it exits or takes longer than `timeoutMs`. */
  async line(pattern: RegExp, timeoutMs: number, from = 0): Promise<RegExpMatchArray> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      for (const line of this.lines.slice(from)) {
        const match = pattern.exec(line);
        if (match) return match;
      }
      if (!this.running) throw new Error(`make up exited before printing ${pattern}:\n${this.tail()}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`make up did not print ${pattern} within ${timeoutMs} ms:\n${this.tail()}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.add(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Each process's pid, as its last ready line says. */
  pids(): Map<string, number> {
    const pids = new Map<string, number>();
    for (const line of this.lines) {
      const match = /^ {2}(\S+) (?:ready|started again, ready) \(pid (\d+)\)$/.exec(line);
      if (match) pids.set(match[1] as string, Number(match[2]));
    }
    return pids;
  }

  /** The lines that told of an exit of `name`. */
  exitsOf(name: string): string[] {
    return this.lines.filter((line) => line.startsWith(`  ✗ ${name} (pid `));
  }

  tail(lines = 40): string {
    return this.lines.slice(-lines).join('\n');
  }

  private wake(): void {
    for (const wake of [...this.waiters]) wake();
    this.waiters.clear();
  }
}

/** Whether nothing listens on `port`. */
function free(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, () => server.close(() => resolve(true)));
  });
}

/**
 * A PORT_BASE whose ports (the gateway's and every other service's, shifted
 * alike, and each one's metrics port above it) are free, below the ports test
 * systems and the kernel pick.
 */
export async function freePortBase(): Promise<number> {
  for (;;) {
    const base = 10_000 + 20 * Math.floor(Math.random() * 450);
    const ports = SERVICE_NAMES.flatMap((service) => [base + descriptionOf(service).port - 8080, base + descriptionOf(service).port - 8080 + METRICS_PORT_OFFSET]);
    if ((await Promise.all(ports.map(free))).every(Boolean)) return base;
  }
}
