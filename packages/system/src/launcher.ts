/**
 * Starts the services of a system, each either as a child process (`node
 * services/<name>/dist/src/main.js`, the build production runs) or in the
 * calling process (its package imported by name, its `service` definition
 * started beside the others), logs to a file per process, waits until each
 * answers /readyz (or /healthz), and stops, kills and restarts them.
 *
 * In-process services share what is global to a process, so some things only
 * child processes can do: see README.md, "In-process".
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { WriteStream } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLogger, describeError, type Logger } from '@gateway/observability';
import type { RunningService, ServiceDefinition } from '@gateway/runtime';
import type { ServiceId } from './description.js';
import { privateAppendStream, privateFolder } from './private-files.mjs';

/** The repository root (this file is packages/system/dist/src/launcher.js once built). */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');

/** How a service runs: a child process of its own, or in the calling process beside others. */
export type LaunchMode = 'child-process' | 'in-process';

export interface LauncherOptions {
  /** Where each process writes its log: `<logDir>/<name>.log`, appended to, 0600 in a folder 0700 (they hold addresses and emails). */
  readonly logDir: string;
  /** Child processes unless given. */
  readonly mode?: LaunchMode;
  /** How long a process may take to answer its readiness path (60 s when not given). */
  readonly readyTimeoutMs?: number;
  /** Node options of a child process, by process name (`--cpu-prof`...). */
  readonly nodeArgs?: (name: string) => readonly string[];
  /** Each chunk a child process writes to its standard error, besides its log. */
  readonly onStderr?: (name: string, chunk: Buffer) => void;
  /** Called when a process exits (or an in-process service has stopped), with its exit code. */
  readonly onExit?: (name: string, code: number | null) => void;
}

/** One process to start. */
export interface Launch {
  /** The process's name: its service's, or a replica's (`session-2`). */
  readonly name: string;
  readonly service: ServiceId;
  /** Where it listens; in-process, 0 picks a free port. */
  readonly port: number;
  /** Its settings (a child process also inherits this process's environment, beneath them). */
  readonly env: Readonly<Record<string, string>>;
  /** What answers 200 once it is started: /readyz (ready), /healthz (alive: a dependency broken on purpose), or nothing to wait for. */
  readonly waitFor?: '/readyz' | '/healthz' | 'nothing';
}

/** How a process ended: its exit code, or the signal that ended it. */
export interface ProcessExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/**
 * A start that did not come to readiness: the process exited first, or was not
 * ready in time (and still runs: stop it). The process is the one started.
 */
export class StartFailed extends Error {
  constructor(
    message: string,
    readonly process: RunningProcess,
  ) {
    super(message);
    this.name = 'StartFailed';
  }
}

/** A process the launcher started, until it exits. */
export interface RunningProcess {
  readonly name: string;
  readonly service: ServiceId;
  readonly mode: LaunchMode;
  /** The port it listens on. */
  readonly port: number;
  /** Its process id: this process's for an in-process service. */
  readonly pid: number;
  /** Its exit code once it exits (an in-process service: 0 once stopped, 1 if its stop failed or outlasted SHUTDOWN_TIMEOUT_MS). */
  readonly exited: Promise<number | null>;
  /** How it ended, once it has exited and everything it wrote is in its log file. */
  readonly ended: Promise<ProcessExit>;
  /** A child process's own handle; none in-process. */
  readonly child?: ChildProcess;
}

/** How long after a child process exits its log may wait for its output streams to close. */
const LOG_CLOSE_WAIT_MS = 2_000;

/** The child processes of every launcher of this process, killed if it exits without stopping them. */
const children = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

export class Launcher {
  /** The processes running now, by name. */
  readonly running = new Map<string, RunningProcess>();
  /** How each process name was last started, so it can be started again alike. */
  private readonly launches = new Map<string, Launch>();
  /** How to stop each running process. */
  private readonly stoppers = new Map<string, (signal: NodeJS.Signals) => void>();

  constructor(readonly options: LauncherOptions) {
    privateFolder(options.logDir);
  }

  get mode(): LaunchMode {
    return this.options.mode ?? 'child-process';
  }

  /** The log file of process `name`. */
  logOf(name: string): string {
    return path.join(this.options.logDir, `${name}.log`);
  }

  /** How process `name` was last started. */
  launchOf(name: string): Launch | undefined {
    return this.launches.get(name);
  }

  /** Starts `launch` and waits until it answers its readiness path; throws StartFailed if it exits first or is not ready in time. */
  async start(launch: Launch): Promise<RunningProcess> {
    if (this.running.has(launch.name)) throw new Error(`${launch.name} is already running`);
    this.launches.set(launch.name, launch);
    const started = this.mode === 'in-process' ? await this.startInProcess(launch) : this.startChild(launch);
    this.running.set(launch.name, started);
    void started.exited.then((code) => {
      if (this.running.get(launch.name) === started) this.running.delete(launch.name);
      this.stoppers.delete(launch.name);
      this.options.onExit?.(launch.name, code);
    });
    if (launch.waitFor !== 'nothing') {
      try {
        await waitUntilAnswering(started, launch.waitFor ?? '/readyz', this.options.readyTimeoutMs ?? 60_000, this.logOf(launch.name));
      } catch (err) {
        throw new StartFailed((err as Error).message, started);
      }
    }
    return started;
  }

  /** Starts process `name` again as it was last started (same service, port and settings). */
  async restart(name: string): Promise<RunningProcess> {
    const launch = this.launches.get(name);
    if (!launch) throw new Error(`no process ${name} was started here`);
    return this.start(launch);
  }

  /**
   * Sends `signal` to process `name` (SIGTERM: a graceful stop; SIGKILL: none,
   * child processes only) and waits until it has exited; its exit code, or null
   * when it was not running.
   */
  async stop(name: string, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
    const running = this.running.get(name);
    const stop = this.stoppers.get(name);
    if (!running || !stop) return null;
    stop(signal);
    return running.exited;
  }

  /** Stops every running process gracefully, all at once; resolves once each has exited. */
  async stopAll(): Promise<void> {
    await Promise.all([...this.running.keys()].map((name) => this.stop(name)));
  }

  private startChild(launch: Launch): RunningProcess {
    const main = path.join(repoRoot, 'services', launch.service, 'dist', 'src', 'main.js');
    const child = spawn(process.execPath, [...(this.options.nodeArgs?.(launch.name) ?? []), main], {
      cwd: repoRoot,
      env: { ...process.env, ...launch.env, PORT: String(launch.port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(child);
    const log = privateAppendStream(this.logOf(launch.name));
    // Both streams write to one file, which is ended once both are closed (not by the first to end).
    child.stdout?.pipe(log, { end: false });
    child.stderr?.pipe(log, { end: false });
    const onStderr = this.options.onStderr;
    if (onStderr) child.stderr?.on('data', (chunk: Buffer) => onStderr(launch.name, chunk));
    let exit: ProcessExit = { code: null, signal: null };
    const exited: Promise<number | null> = new Promise((resolve) =>
      child.once('exit', (code, signal) => {
        children.delete(child);
        exit = { code, signal };
        resolve(code);
      }),
    );
    const logged = new Promise<void>((resolve) => {
      child.once('close', () => log.end(resolve));
      // A stream kept open by something the process left behind must not hold its end back for long.
      void exited.then(() => setTimeout(resolve, LOG_CLOSE_WAIT_MS).unref());
    });
    const ended = exited.then(() => logged).then(() => exit);
    this.stoppers.set(launch.name, (signal) => child.kill(signal));
    return { name: launch.name, service: launch.service, mode: 'child-process', port: launch.port, pid: child.pid ?? 0, exited, ended, child };
  }

  /**
   * Imports `@gateway/<service>` and starts its definition here, with a logger
   * of its own writing to its log file. A start that fails is logged there as a
   * child process's would be, and thrown as one that exited during start.
   */
  private async startInProcess(launch: Launch): Promise<RunningProcess> {
    const file = privateAppendStream(this.logOf(launch.name));
    const env = { ...process.env, ...launch.env, PORT: String(launch.port) };
    let log: Logger = createLogger({ service: launch.service, destination: file });
    let running: RunningService;
    let shutdownTimeoutMs: number;
    try {
      const { service } = (await import(`@gateway/${launch.service}`)) as { service: ServiceDefinition };
      const config = service.loadConfig(env);
      shutdownTimeoutMs = config.shutdownTimeoutMs;
      log = createLogger({ service: launch.service, level: config.logLevel, destination: file });
      running = await service.start(config, log);
    } catch (err) {
      log.fatal({ err: describeError(err) }, 'failed to start');
      await flushed(file);
      throw new Error(`${launch.name} exited during start; see its log ${this.logOf(launch.name)}`, { cause: err });
    }
    log.info({ port: running.port }, 'listening');
    let settle: (code: number) => void = () => undefined;
    const exited = new Promise<number | null>((resolve) => {
      settle = resolve;
    });
    let stopping = false;
    this.stoppers.set(launch.name, (signal) => {
      if (signal === 'SIGKILL') throw new Error(`${launch.name} runs in this process: it cannot be killed (SIGKILL), only stopped; start it as a child process`);
      if (stopping) return;
      stopping = true;
      log.info({ signal }, 'stopping');
      void stopWithin(running, shutdownTimeoutMs, log).then(async (code) => {
        await flushed(file);
        settle(code);
      });
    });
    const ended = exited.then((code) => ({ code, signal: null }));
    return { name: launch.name, service: launch.service, mode: 'in-process', port: running.port, pid: process.pid, exited, ended };
  }
}

/** Stops `running` as a process entry does on SIGTERM: its exit code, 0 once stopped, 1 if the stop failed or took longer than `timeoutMs`. */
async function stopWithin(running: RunningService, timeoutMs: number, log: Logger): Promise<number> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<number>((resolve) => {
    timer = setTimeout(() => {
      log.error('graceful stop timed out; exiting');
      resolve(1);
    }, timeoutMs);
  });
  const stopped = running.stop().then(
    () => {
      log.info('stopped');
      return 0;
    },
    (err: unknown) => {
      log.error({ err: describeError(err) }, 'stop failed');
      return 1;
    },
  );
  try {
    return await Promise.race([stopped, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/** Resolves once everything written to `file` so far is written out. */
function flushed(file: WriteStream): Promise<void> {
  return new Promise((resolve) => file.write('', () => resolve()));
}

/** How a wait for a process to answer ended. */
export type AnswerWait = 'answering' | 'exited' | 'timed out';

/**
 * Polls `path` on 127.0.0.1:`port` every `everyMs` (50 when not given) until it
 * answers 200 (`answering`); `exited` once `exited()` says the process is gone
 * (asked before each poll), `timed out` after `timeoutMs`.
 */
export async function untilAnswering(port: number, path: string, options: { readonly timeoutMs: number; readonly everyMs?: number; readonly exited: () => boolean }): Promise<AnswerWait> {
  const deadline = Date.now() + options.timeoutMs;
  while (Date.now() < deadline) {
    if (options.exited()) return 'exited';
    try {
      const res = await fetch(`http://127.0.0.1:${port}${path}`);
      await res.body?.cancel();
      if (res.status === 200) return 'answering';
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, options.everyMs ?? 50));
  }
  return 'timed out';
}

/** Waits until `process` answers `path`; throws once it has exited, or after `timeoutMs`, naming its log. */
async function waitUntilAnswering(process: RunningProcess, path: string, timeoutMs: number, log: string): Promise<void> {
  let gone = false;
  void process.exited.then(() => {
    gone = true;
  });
  const outcome = await untilAnswering(process.port, path, { timeoutMs, exited: () => gone });
  if (outcome === 'exited') throw new Error(`${process.name} exited during start; see its log ${log}`);
  if (outcome === 'timed out') throw new Error(`${process.name} was not ready within ${timeoutMs} ms; see its log ${log}`);
}
