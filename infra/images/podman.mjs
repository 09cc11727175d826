// Podman on this machine kind (Debian 12, no Docker engine, no systemd, cgroup v1 in a VM):
// what it needs installed, the containers.conf it runs with, and one way to call it.
//
// Facts behind the settings (found here, see README "Containers"):
//   - crun refuses this host's cgroup layout: runtime = "runc";
//   - podman's default ulimits (nofile 1048576) fail with "setrlimit: Operation not
//     permitted": default_ulimits are the host's own hard limits (nproc capped at 32768);
//   - no systemd: cgroupfs, events to a file, and /readyz is polled instead of health timers;
//   - overlay works on this ext4 root (native overlay diff), so storage stays podman's default.
// CONTAINERS_CONF points podman at .local/images/containers.conf, written by writeContainersConf().
//
// Plain Node ESM, built-in modules only.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const workDir = path.join(root, '.local', 'images');
export const containersConf = path.join(workDir, 'containers.conf');

/** Debian packages `make images` needs, by the command each provides. */
const TOOLS = [
  { command: 'podman', apt: 'podman' },
  { command: 'runc', apt: 'runc' },
  { command: 'debootstrap', apt: 'debootstrap' },
];

/** Where `name` is on PATH, or undefined. */
export function findCommand(name) {
  const result = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

/** Installs podman, runc and debootstrap from Debian's packages when a command is missing (needs root). */
export function ensureTools(log = console.log) {
  const missing = TOOLS.filter((tool) => !findCommand(tool.command)).map((tool) => tool.apt);
  if (missing.length === 0) return;
  if (!findCommand('apt-get')) throw new Error(`${missing.join(', ')} missing, and this is no Debian machine (no apt-get)`);
  if (process.getuid?.() !== 0) throw new Error(`${missing.join(', ')} missing; run as root, or: sudo apt-get install -y ${missing.join(' ')}`);
  log(`installing ${missing.join(', ')} (apt-get)`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  runOrThrow('apt-get', ['update', '-qq'], { env, timeoutMs: 20 * 60_000 });
  // With recommends: podman's network stack (netavark, aardvark-dns) and crun/runc come that way.
  runOrThrow('apt-get', ['install', '-y', '-qq', ...missing], { env, timeoutMs: 20 * 60_000 });
}

/** A hard resource limit of this shell (`ulimit -H<flag>`), as a number; 'unlimited' is `fallback`. */
function hardLimit(flag, fallback) {
  const out = spawnSync('sh', ['-c', `ulimit -H${flag}`], { encoding: 'utf8' }).stdout.trim();
  const value = Number(out);
  return Number.isInteger(value) && value > 0 ? value : fallback;
}

/** Writes .local/images/containers.conf for this host (its own hard limits) and returns the environment podman runs with. */
export function writeContainersConf() {
  fs.mkdirSync(workDir, { recursive: true });
  const nofile = hardLimit('n', 65536);
  const nproc = Math.min(hardLimit('u', 32768), 32768);
  const text = `# Written by infra/images/podman.mjs for this host; podman reads it through CONTAINERS_CONF.
[containers]
# Above the host's hard limits setrlimit fails ("Operation not permitted").
default_ulimits = ["nofile=${nofile}:${nofile}", "nproc=${nproc}:${nproc}"]
log_driver = "k8s-file"

[engine]
# crun refuses this host's cgroup layout; runc works.
runtime = "runc"
# No systemd here.
cgroup_manager = "cgroupfs"
events_logger = "file"
`;
  fs.writeFileSync(containersConf, text);
  return podmanEnv();
}

/** The environment every podman call here runs with. */
export function podmanEnv() {
  return { ...process.env, CONTAINERS_CONF: containersConf };
}

/** Runs podman; answers { status, stdout, stderr }. `input` is piped to its stdin. */
export function podman(args, { input, timeoutMs = 30 * 60_000, inherit = false } = {}) {
  const result = spawnSync('podman', args, {
    env: podmanEnv(),
    encoding: 'utf8',
    input,
    timeout: timeoutMs,
    maxBuffer: 256 * 1024 * 1024,
    stdio: inherit ? ['ignore', 'inherit', 'inherit'] : ['pipe', 'pipe', 'pipe'],
  });
  if (result.error) throw new Error(`podman ${args[0]}: ${result.error.message}`);
  return { status: result.status, stdout: result.stdout ?? '', stderr: result.stderr ?? '' };
}

/** Runs podman and throws with its error output when it fails; answers its standard output. */
export function podmanOrThrow(args, options = {}) {
  const result = podman(args, options);
  if (result.status !== 0) throw new Error(`podman ${args.join(' ')} exited ${result.status}: ${result.stderr.trim().slice(-2000)}`);
  return result.stdout;
}

/** Whether image `name` is in podman's local storage. */
export function imageExists(name) {
  return podman(['image', 'exists', name]).status === 0;
}

/** Runs a command with inherited output and throws when it fails. */
export function runOrThrow(command, args, { env = process.env, timeoutMs = 30 * 60_000, cwd = root } = {}) {
  const result = spawnSync(command, args, { env, cwd, stdio: 'inherit', timeout: timeoutMs });
  if (result.error) throw new Error(`${command}: ${result.error.message}`);
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${result.status ?? result.signal}`);
}
