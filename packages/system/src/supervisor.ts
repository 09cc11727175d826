/**
 * Keeps the services of a local run up (`make up`): each is a child process of
 * the launcher; one that exits unasked is started again after a wait that grows
 * while it keeps failing (jittered), and one that keeps failing at its start is
 * given up on, the others left running. Every start, end and give-up is told
 * as an event, with the exit code or signal and the last lines of the process's
 * log (its output goes to a file, not to the console). Tests and benchmarks
 * start their systems with the launcher alone: a process they kill stays down
 * until they restart it.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { backoffDelay, type GrowingWait } from '@gateway/backoff';
import { Launcher, StartFailed, type Launch, type LauncherOptions, type ProcessExit, type RunningProcess } from './launcher.js';

/** When a process that exited unasked is started again, and when it is given up on. */
interface RestartPolicy {
  /** The wait before a restart: growing with each exit in a row, jittered. */
  readonly backoff: GrowingWait;
  /** A run that was ready at least this long ends a row of exits: the next restart waits the first wait again. */
  readonly stableAfterMs: number;
  /** A run that never became ready, or exited within this long of it, failed at its start. */
  readonly failedAtStartWithinMs: number;
  /** After this many failures at start in a row the process is not started again. */
  readonly giveUpAfter: number;
}

/** `make up`'s policy: 0.5 s growing to 10 s (±20 %); given up after 5 failures at start (exits within 5 s of readiness) in a row. */
export const RESTART_POLICY: RestartPolicy = {
  backoff: { first: 500, max: 10_000, jitter: 0.2 },
  stableAfterMs: 30_000,
  failedAtStartWithinMs: 5_000,
  giveUpAfter: 5,
};

/** One run of a process, as far as the policy cares. */
export interface Run {
  /** Whether it answered its readiness path. */
  readonly ready: boolean;
  /** How long it was ready before it exited (0 when it never was). */
  readonly readyMs: number;
}

/** What follows a run that ended unasked: a restart after `afterMs`, or none. */
export type RestartDecision =
  | { readonly restart: true; readonly afterMs: number; readonly failuresAtStart: number }
  | { readonly restart: false; readonly failuresAtStart: number };

/**
 * The restart policy applied to one process's runs, one after the other: what
 * to do after each run that ended unasked.
 */
export class RestartRule {
  private exitsInARow = 0;
  private failuresAtStart = 0;

  constructor(
    readonly policy: RestartPolicy = RESTART_POLICY,
    private readonly random: () => number = Math.random,
  ) {}

  /** What follows `run`, which ended unasked. */
  next(run: Run): RestartDecision {
    const stable = run.ready && run.readyMs >= this.policy.stableAfterMs;
    this.exitsInARow = stable ? 1 : this.exitsInARow + 1;
    const atStart = !run.ready || run.readyMs < this.policy.failedAtStartWithinMs;
    this.failuresAtStart = atStart ? this.failuresAtStart + 1 : 0;
    if (this.failuresAtStart >= this.policy.giveUpAfter) return { restart: false, failuresAtStart: this.failuresAtStart };
    return { restart: true, afterMs: backoffDelay(this.policy.backoff, this.exitsInARow - 1, this.random), failuresAtStart: this.failuresAtStart };
  }
}

/** What the supervisor has to tell. */
export type SupervisorEvent =
  | {
      readonly type: 'started';
      readonly name: string;
      readonly pid: number;
      /** How many times it was started before (0: its first start). */
      readonly restarts: number;
    }
  | {
      readonly type: 'exited';
      readonly name: string;
      readonly pid: number;
      readonly exit: ProcessExit;
      /** Why its start failed (it exited first, or was not ready in time), when it never became ready. */
      readonly startFailure?: string;
      /** How long it had been ready. */
      readonly readyMs: number;
      readonly next: RestartDecision;
      /** Its log file, and the lines of its last run there that tell most: its warnings and errors, else its last lines. */
      readonly logFile: string;
      readonly lastLines: readonly string[];
    };

interface SupervisorOptions extends Pick<LauncherOptions, 'logDir' | 'readyTimeoutMs' | 'nodeArgs' | 'onStderr'> {
  readonly policy?: RestartPolicy;
  /** Each start, exit and give-up. */
  readonly onEvent?: (event: SupervisorEvent) => void;
  /** For the jitter of the waits (tests). */
  readonly random?: () => number;
}

/** How many lines of a log an exit tells, and how far back in the file it looks for them. */
const TOLD_LINES = 5;
const TAIL_BYTES = 32 * 1024;

export class Supervisor {
  readonly launcher: Launcher;
  private stopping = false;
  private readonly loops = new Set<Promise<void>>();
  /** Wakes a process's wait before its restart, when everything stops. */
  private readonly sleepers = new Set<() => void>();

  constructor(readonly options: SupervisorOptions) {
    this.launcher = new Launcher({ logDir: options.logDir, mode: 'child-process', readyTimeoutMs: options.readyTimeoutMs, nodeArgs: options.nodeArgs, onStderr: options.onStderr });
  }

  /** The processes running now, by name. */
  get running(): ReadonlyMap<string, RunningProcess> {
    return this.launcher.running;
  }

  /**
   * Starts `launch` and keeps it up until stopAll. Resolves true once its first
   * run is ready, false when it was given up on (or everything stopped) first.
   */
  start(launch: Launch): Promise<boolean> {
    return new Promise((resolve, reject) => {
      const loop = this.keep(launch, () => resolve(true))
        .then(() => resolve(false), reject)
        .finally(() => this.loops.delete(loop));
      this.loops.add(loop);
    });
  }

  /** Stops every process gracefully and starts none again; resolves once each has exited. */
  async stopAll(): Promise<void> {
    this.stopping = true;
    for (const wake of this.sleepers) wake();
    await this.launcher.stopAll();
    await Promise.allSettled([...this.loops]);
  }

  private async keep(launch: Launch, ready: () => void): Promise<void> {
    const rule = new RestartRule(this.options.policy, this.options.random);
    const logFile = this.launcher.logOf(launch.name);
    for (let restarts = 0; !this.stopping; restarts += 1) {
      const logFrom = sizeOf(logFile);
      let running: RunningProcess;
      let readyAt: number | undefined;
      let startFailure: string | undefined;
      try {
        running = await this.launcher.start(launch);
        readyAt = Date.now();
        this.options.onEvent?.({ type: 'started', name: launch.name, pid: running.pid, restarts });
        ready();
      } catch (err) {
        if (!(err instanceof StartFailed)) throw err;
        running = err.process;
        startFailure = err.message;
        // Not ready in time: it may still run.
        if (!this.stopping) await this.launcher.stop(launch.name, 'SIGKILL');
      }
      const exit = await running.ended;
      if (this.stopping) return;
      const readyMs = readyAt === undefined ? 0 : Date.now() - readyAt;
      const next = rule.next({ ready: readyAt !== undefined, readyMs });
      this.options.onEvent?.({
        type: 'exited',
        name: launch.name,
        pid: running.pid,
        exit,
        ...(startFailure !== undefined && { startFailure }),
        readyMs,
        next,
        logFile,
        lastLines: telling(tailOf(logFile, logFrom)),
      });
      if (!next.restart) return;
      await this.sleep(next.afterMs);
    }
  }

  /** Waits `ms`, or until everything stops. */
  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.sleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.sleepers.add(wake);
    });
  }
}

/** The lines of an event as a console shows them; `shown` names the log file (a path relative to where the reader stands). */
export function describeEvent(event: SupervisorEvent, shown: (file: string) => string = (file) => file): string[] {
  if (event.type === 'started') return [event.restarts === 0 ? `  ${event.name} ready (pid ${event.pid})` : `  ${event.name} started again, ready (pid ${event.pid})`];
  const how = event.exit.signal ? `killed by ${event.exit.signal}` : `exit code ${event.exit.code}`;
  const when = event.startFailure ? `during its start (${event.startFailure.replace(/; see its log .*$/, '')})` : `after ${seconds(event.readyMs)} ready`;
  const what = event.next.restart
    ? `starting it again in ${seconds(event.next.afterMs)}`
    : `it failed at its start ${event.next.failuresAtStart} times in a row: not starting it again; the other services keep running`;
  const lines = [`  ✗ ${event.name} (pid ${event.pid}) exited, ${how}, ${when}; ${what}.`];
  lines.push(event.lastLines.length > 0 ? `    last lines of ${shown(event.logFile)}:` : `    ${shown(event.logFile)} has nothing from this run.`);
  for (const line of event.lastLines) lines.push(`      ${line}`);
  return lines;
}

function seconds(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

/** The complete lines written to `file` from byte `from` on, at most its last TAIL_BYTES. */
export function tailOf(file: string, from: number): string[] {
  const size = sizeOf(file);
  const start = Math.max(from, size - TAIL_BYTES);
  if (size <= start) return [];
  const buffer = Buffer.alloc(size - start);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, buffer, 0, buffer.length, start);
  } finally {
    closeSync(fd);
  }
  const lines = buffer.toString('utf8').split('\n');
  // A read that starts mid-file starts mid-line.
  if (start > from) lines.shift();
  return lines.map((line) => line.trimEnd()).filter((line) => line !== '');
}

const TELLING_LEVELS = new Set(['warn', 'error', 'fatal']);

/** A line of Node's print of an uncaught error that says where, not what: a stack frame, a caret, a brace, the Node.js version. */
const TRACE_LINE = /^\s+at |^\s*\^+\s*$|^\s*[{}]\s*$|^Node\.js v\d/;
/** The first line of the source excerpt Node prints above an uncaught error (`file:///…/index.js:36`); the excerpt's line follows it. */
const SOURCE_LINE = /^(file:\/\/|node:)\S*:\d+$/;

/** `lines` without what Node prints of where an uncaught error was thrown, keeping what it says. */
function withoutTrace(lines: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i] as string;
    if (SOURCE_LINE.test(line)) i += 1;
    else if (line.trim() !== '' && !TRACE_LINE.test(line)) kept.push(line);
  }
  return kept;
}

/**
 * The lines of a log that tell why a process ended, shortened for a console:
 * its last warnings and errors (and anything not a JSON log line: what Node
 * writes of an uncaught error), else its last lines. A JSON line is shown as
 * its level, message and error.
 */
export function telling(lines: readonly string[]): string[] {
  const read = withoutTrace(lines).map((line) => {
    try {
      const entry = JSON.parse(line) as { level?: unknown; msg?: unknown; err?: { name?: unknown; message?: unknown } };
      if (typeof entry !== 'object' || entry === null) return { telling: true, text: line };
      const err = entry.err && typeof entry.err.message === 'string' ? `: ${String(entry.err.name ?? 'Error')}: ${entry.err.message}` : '';
      return { telling: TELLING_LEVELS.has(String(entry.level)), text: `${String(entry.level ?? '')} ${String(entry.msg ?? '')}${err}`.trim() };
    } catch {
      return { telling: true, text: line };
    }
  });
  const worst = read.filter((line) => line.telling);
  return (worst.length > 0 ? worst : read).slice(-TOLD_LINES).map((line) => (line.text.length > 300 ? `${line.text.slice(0, 299)}…` : line.text));
}
