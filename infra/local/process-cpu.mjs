// CPU time by process over a window, read from /proc (Linux): the services the
// benchmark started (by pid), the servers (PostgreSQL, RabbitMQ, Redis, by
// command name, every backend and helper process included) and the load
// generator itself. Dividing by the work done in the window gives CPU per unit
// of work, a steadier figure than throughput on a shared, noisy machine.
import { readdirSync, readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100;
const SERVERS = [
  ['postgres', /^postgres/],
  ['rabbitmq', /^(beam\.smp|erl_child_setup|epmd|inet_gethost)/],
  ['redis', /^redis-server/],
];

/**
 * The database a PostgreSQL backend serves, from its process title
 * ("postgres: [cluster: ]user database host(port) state"); undefined for the server's own processes.
 */
function backendDatabase(pid) {
  try {
    const title = readFileSync(`/proc/${pid}/cmdline`, 'latin1').replaceAll('\0', ' ');
    return /^postgres: (?:[^:\s]+: )?\S+ (\S+) /.exec(title)?.[1];
  } catch {
    return undefined;
  }
}

/**
 * `named` maps pids to names; returns CPU seconds by name so far. With
 * `databases` (database name → label), the backends serving one of them are
 * counted under its label rather than under "postgres": on a server shared
 * with other work, what one system's statements cost.
 */
function snapshot(named, databases) {
  const totals = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
    } catch {
      continue; // gone meanwhile
    }
    // pid (comm) state ppid ...: comm may hold spaces, so split after its closing parenthesis.
    const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const own = Number(fields[11]) + Number(fields[12]);
    let name = named.get(Number(entry));
    let ticks = own;
    if (!name) {
      name = SERVERS.find(([, pattern]) => pattern.test(comm))?.[0];
      if (name === 'postgres' && databases) name = databases.get(backendDatabase(entry)) ?? name;
      // A server's helper that ends during the window (a PostgreSQL backend whose
      // pool connection idled out) takes its own time with it, but its parent,
      // counted under the same name, then holds it as its children's time.
      ticks += Number(fields[13]) + Number(fields[14]);
    }
    if (name) totals.set(name, (totals.get(name) ?? 0) + ticks / TICKS_PER_SECOND);
  }
  return totals;
}

/**
 * Starts a window; `stop()` returns CPU seconds by name spent during it.
 * `named` maps the pids of the processes to report by name (the generator's
 * own pid is added as "load generator"); `databases`, optional, names the
 * PostgreSQL backends of some databases apart (see snapshot).
 */
export function cpuWindow(named, databases) {
  const names = new Map(named);
  names.set(process.pid, 'load generator');
  const before = snapshot(names, databases);
  return {
    stop() {
      const after = snapshot(names, databases);
      const spent = new Map();
      for (const [name, seconds] of after) spent.set(name, seconds - (before.get(name) ?? 0));
      return spent;
    },
  };
}

/** CPU ms per unit of work by name, largest first, with the total. */
export function perUnit(spent, units) {
  const rows = [...spent].filter(([, s]) => s > 0).sort((a, b) => b[1] - a[1]);
  const ms = (seconds) => Math.round(((seconds * 1000) / units) * 100) / 100;
  return { ...Object.fromEntries(rows.map(([name, seconds]) => [name, ms(seconds)])), total: ms(rows.reduce((sum, [, s]) => sum + s, 0)) };
}

/** Resident set size of `pid` in KiB (VmRSS), or undefined once it is gone. */
function rssKiB(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'latin1');
    return Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1]);
  } catch {
    return undefined;
  }
}

/**
 * Samples the resident memory of the processes `named` maps (pid → name)
 * every `everyMs` while a window runs; `stop()` returns, by name, the
 * largest and the last reading in MiB. Requests and limits in k8s/ are
 * sized from these figures.
 */
export function rssWindow(named, everyMs = 500) {
  const peak = new Map();
  const last = new Map();
  const sample = () => {
    for (const [pid, name] of named) {
      const kib = rssKiB(pid);
      if (kib === undefined) continue;
      last.set(name, kib);
      peak.set(name, Math.max(peak.get(name) ?? 0, kib));
    }
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      const mib = (kib) => Math.round((kib / 1024) * 10) / 10;
      return new Map([...peak].map(([name, kib]) => [name, { peakMiB: mib(kib), lastMiB: mib(last.get(name)) }]));
    },
  };
}
