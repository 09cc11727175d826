/**
 * Clustered engines on this one machine, as production runs them (D23): a
 * three-node RabbitMQ cluster, PostgreSQL as primary and synchronous standby
 * under Patroni (etcd, three members) behind HAProxy, which sends clients to
 * whichever member Patroni's REST API calls the primary, and Redis as master,
 * two replicas and three Sentinels. All from Debian's packages, each process
 * in a folder of its own under one temporary folder, on ports of their own
 * beside the machine's single servers; `stop` ends every one of them.
 */
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { chownSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, copyFileSync, chmodSync, existsSync } from 'node:fs';
import { connect as tcpConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

const RABBIT_NODES = [1, 2, 3].map((n) => ({ name: `gwha${n}@localhost`, port: 5700 + n, distPort: 25700 + n }));
const ETCD_MEMBERS = [1, 2, 3].map((n) => ({ name: `etcd${n}`, clientPort: 2390 + n, peerPort: 2490 + n }));
const PG_MEMBERS = [1, 2].map((n) => ({ name: `pg${n}`, port: 5440 + n, restPort: 8440 + n }));
const HAPROXY_PORT = 5440;
const REDIS_PORTS = [6391, 6392, 6393];
const SENTINEL_PORTS = [26391, 26392, 26393];
export const SENTINEL_NAME = 'gateway';

interface Started {
  readonly name: string;
  readonly restart: () => ChildProcess;
  child: ChildProcess;
}

export class Engines {
  private readonly processes = new Map<string, Started>();

  private constructor(readonly dir: string) {}

  /** Where the system's services connect: the cluster's nodes, HAProxy's address, the Sentinels. */
  readonly amqpUrls = RABBIT_NODES.map((node) => `amqp://guest:guest@127.0.0.1:${node.port}`);
  readonly postgresAdminUrl = `postgres://postgres@127.0.0.1:${HAPROXY_PORT}/postgres`;
  readonly redisSentinels = SENTINEL_PORTS.map((port) => `127.0.0.1:${port}`).join(',');
  readonly rabbitNodes = RABBIT_NODES.map((node) => node.name);

  static async start(log: (line: string) => void): Promise<Engines> {
    const engines = new Engines(mkdtempSync(join(tmpdir(), 'gateway-ha-')));
    // PostgreSQL runs as its own user, which must reach its folder inside.
    chmodSync(engines.dir, 0o755);
    try {
      await Promise.all([engines.startRabbit(log), engines.startPostgres(log), engines.startRedis(log)]);
    } catch (err) {
      await engines.stop();
      throw err;
    }
    return engines;
  }

  // --- RabbitMQ ---------------------------------------------------------

  private async startRabbit(log: (line: string) => void): Promise<void> {
    const started = Date.now();
    // rabbitmqctl (Debian's wrapper runs it as the rabbitmq user) reaches these nodes with its own cookie.
    const cookie = '/var/lib/rabbitmq/.erlang.cookie';
    for (const node of RABBIT_NODES) {
      const home = this.folder(`rabbit-${node.port}`);
      copyFileSync(cookie, join(home, '.erlang.cookie'));
      chmodSync(join(home, '.erlang.cookie'), 0o400);
      writeFileSync(join(home, 'rabbitmq.conf'), `listeners.tcp.default = 127.0.0.1:${node.port}\ncluster_partition_handling = pause_minority\nloopback_users = none\n`);
      writeFileSync(join(home, 'enabled_plugins'), '[].\n');
      writeFileSync(join(home, 'rabbitmq-env.conf'), '');
      const env = {
        ...process.env,
        HOME: home,
        RABBITMQ_NODENAME: node.name,
        RABBITMQ_NODE_PORT: String(node.port),
        RABBITMQ_DIST_PORT: String(node.distPort),
        RABBITMQ_MNESIA_BASE: join(home, 'mnesia'),
        RABBITMQ_LOG_BASE: join(home, 'log'),
        RABBITMQ_CONFIG_FILE: join(home, 'rabbitmq.conf'),
        RABBITMQ_CONF_ENV_FILE: join(home, 'rabbitmq-env.conf'),
        RABBITMQ_ENABLED_PLUGINS_FILE: join(home, 'enabled_plugins'),
        RABBITMQ_ADVANCED_CONFIG_FILE: join(home, 'advanced.config'),
        RABBITMQ_PID_FILE: join(home, 'pid'),
      };
      this.launch(`rabbit-${node.port}`, '/usr/lib/rabbitmq/bin/rabbitmq-server', [], { env, cwd: home });
    }
    for (const node of RABBIT_NODES) await waitForPort(node.port, 60_000);
    const [first, ...others] = RABBIT_NODES;
    for (const node of others) {
      await this.rabbitCtl(node.name, ['stop_app']);
      await this.rabbitCtl(node.name, ['join_cluster', (first as (typeof RABBIT_NODES)[number]).name]);
      await this.rabbitCtl(node.name, ['start_app']);
    }
    log(`engines: RabbitMQ cluster of ${RABBIT_NODES.length} nodes in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }

  /** rabbitmqctl against one node of the cluster. */
  async rabbitCtl(node: string, args: readonly string[]): Promise<string> {
    const { stdout } = await run('rabbitmqctl', ['-q', '-n', node, ...args], { timeout: 60_000 });
    return stdout;
  }

  /** The nodes the connections of users whose name starts with `prefix` are on, with how many each. */
  async connectionNodes(prefix: string): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    const [node] = await this.runningRabbitNodes();
    if (!node) return counts;
    // A connection's node is the one listening on the port it reached.
    const listed = await this.rabbitCtl(node, ['list_connections', 'user', 'port', '--no-table-headers']);
    for (const line of listed.split('\n')) {
      const [user, port] = line.trim().split(/\s+/);
      const on = RABBIT_NODES.find((n) => String(n.port) === port)?.name;
      if (user?.startsWith(prefix) && on) counts.set(on, (counts.get(on) ?? 0) + 1);
    }
    return counts;
  }

  /** The node leading the most quorum queues whose name starts with `prefix`. */
  async busiestLeader(prefix: string): Promise<string | undefined> {
    const [node] = await this.runningRabbitNodes();
    if (!node) return undefined;
    const listed = await this.rabbitCtl(node, ['list_queues', 'name', 'type', 'leader', '--no-table-headers']);
    const counts = new Map<string, number>();
    for (const line of listed.split('\n')) {
      const [name, type, leader] = line.trim().split(/\s+/);
      if (!name?.startsWith(prefix) || type !== 'quorum' || !leader) continue;
      counts.set(leader, (counts.get(leader) ?? 0) + 1);
    }
    return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
  }

  /** The quorum queues starting with `prefix` and how many members each has online. */
  async quorumMembers(prefix: string): Promise<Map<string, number>> {
    const [node] = await this.runningRabbitNodes();
    const members = new Map<string, number>();
    if (!node) return members;
    const listed = await this.rabbitCtl(node, ['list_queues', 'name', 'type', 'online', '--formatter', 'json']);
    for (const queue of JSON.parse(listed || '[]') as { name: string; type: string; online: string[] | string }[]) {
      if (queue.name.startsWith(prefix) && queue.type === 'quorum') members.set(queue.name, Array.isArray(queue.online) ? queue.online.length : 0);
    }
    return members;
  }

  private async runningRabbitNodes(): Promise<string[]> {
    const up: string[] = [];
    for (const node of RABBIT_NODES) if (await portOpen(node.port)) up.push(node.name);
    return up;
  }

  /** kill -9 of a RabbitMQ node's Erlang VM. */
  async killRabbitNode(node: string): Promise<void> {
    const pid = Number((await this.rabbitCtl(node, ['eval', 'list_to_integer(os:getpid()).'])).trim());
    if (!Number.isInteger(pid) || pid <= 1) throw new Error(`no pid for ${node}`);
    process.kill(pid, 'SIGKILL');
  }

  /** Starts a killed node again; it rejoins the cluster by itself. */
  async restartRabbitNode(node: string): Promise<void> {
    const spec = RABBIT_NODES.find((n) => n.name === node);
    if (!spec) throw new Error(`unknown node ${node}`);
    this.relaunch(`rabbit-${spec.port}`);
    await waitForPort(spec.port, 60_000);
    await this.rabbitCtl(node, ['await_startup']);
  }

  // --- PostgreSQL -------------------------------------------------------

  private async startPostgres(log: (line: string) => void): Promise<void> {
    const started = Date.now();
    const cluster = ETCD_MEMBERS.map((m) => `${m.name}=http://127.0.0.1:${m.peerPort}`).join(',');
    for (const member of ETCD_MEMBERS) {
      const dir = this.folder(member.name);
      this.launch(member.name, 'etcd', [
        `--name=${member.name}`,
        `--data-dir=${join(dir, 'data')}`,
        `--listen-client-urls=http://127.0.0.1:${member.clientPort}`,
        `--advertise-client-urls=http://127.0.0.1:${member.clientPort}`,
        `--listen-peer-urls=http://127.0.0.1:${member.peerPort}`,
        `--initial-advertise-peer-urls=http://127.0.0.1:${member.peerPort}`,
        `--initial-cluster=${cluster}`,
        '--initial-cluster-state=new',
        '--initial-cluster-token=gateway-ha',
      ]);
    }
    for (const member of ETCD_MEMBERS) await waitForPort(member.clientPort, 30_000);
    const postgres = await run('id', ['-u', 'postgres']).then(({ stdout }) => Number(stdout.trim()));
    const postgresGroup = await run('id', ['-g', 'postgres']).then(({ stdout }) => Number(stdout.trim()));
    const bin = `/usr/lib/postgresql/${await postgresMajor()}/bin`;
    for (const member of PG_MEMBERS) {
      const dir = this.folder(member.name);
      chownSync(dir, postgres, postgresGroup);
      writeFileSync(join(dir, 'patroni.yml'), patroniConfig(member, dir, bin));
      chownSync(join(dir, 'patroni.yml'), postgres, postgresGroup);
    }
    // The first member bootstraps the cluster; the second, started once it leads, is made from it.
    this.launch('pg1', 'patroni', [join(this.folder('pg1'), 'patroni.yml')], { uid: postgres, gid: postgresGroup });
    await waitFor(async () => (await patroniRole(PG_MEMBERS[0]?.restPort ?? 0)) === 'primary', 60_000, 'the first PostgreSQL member leads');
    this.launch('pg2', 'patroni', [join(this.folder('pg2'), 'patroni.yml')], { uid: postgres, gid: postgresGroup });
    await waitFor(async () => (await this.synchronousStandby()) !== undefined, 90_000, 'a synchronous standby');
    const haproxy = join(this.folder('haproxy'), 'haproxy.cfg');
    writeFileSync(haproxy, haproxyConfig());
    this.launch('haproxy', 'haproxy', ['-f', haproxy, '-db']);
    // HAProxy starts with every server up until its checks say otherwise: wait until none but the primary answers.
    await waitFor(async () => (await Promise.all([1, 2, 3, 4].map(() => writable(this.postgresAdminUrl)))).every(Boolean), 30_000, 'the primary alone through HAProxy');
    log(`engines: PostgreSQL primary and synchronous standby under Patroni, behind HAProxy, in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }

  /** The member Patroni calls the primary, by name. */
  async postgresPrimary(): Promise<string | undefined> {
    for (const member of PG_MEMBERS) if ((await patroniRole(member.restPort)) === 'primary') return member.name;
    return undefined;
  }

  /** The member that is the synchronous standby, by name. */
  async synchronousStandby(): Promise<string | undefined> {
    for (const member of PG_MEMBERS) {
      const cluster = await patroniJson<{ members?: { name: string; role: string; state: string }[] }>(member.restPort, '/cluster');
      const standby = cluster?.members?.find((m) => m.role === 'sync_standby' && ['streaming', 'running'].includes(m.state));
      if (standby) return standby.name;
    }
    return undefined;
  }

  /** kill -9 of a member's Patroni and its postmaster: the machine it runs on is gone. */
  killPostgresMember(name: string): void {
    const postmaster = postmasterOf(this.folder(name));
    this.signal(name, 'SIGKILL');
    if (postmaster) killGroup(postmaster);
  }

  /** Starts a killed member again: it rejoins as a standby (pg_rewind when needed). */
  restartPostgresMember(name: string): void {
    this.relaunch(name);
  }

  /** Ends HAProxy (kill -9): the database cannot be reached at all until it is started again. */
  stopHaproxy(): void {
    this.signal('haproxy', 'SIGKILL');
  }

  async startHaproxy(): Promise<void> {
    this.relaunch('haproxy');
    await waitForPort(HAPROXY_PORT, 10_000);
  }

  // --- Redis ------------------------------------------------------------

  private async startRedis(log: (line: string) => void): Promise<void> {
    const started = Date.now();
    const [masterPort] = REDIS_PORTS;
    for (const port of REDIS_PORTS) {
      const dir = this.folder(`redis-${port}`);
      const replicaOf = port === masterPort ? [] : ['--replicaof', '127.0.0.1', String(masterPort)];
      this.launch(`redis-${port}`, 'redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, ...replicaOf]);
    }
    for (const port of REDIS_PORTS) await waitForPort(port, 10_000);
    for (const port of SENTINEL_PORTS) {
      const dir = this.folder(`sentinel-${port}`);
      const file = join(dir, 'sentinel.conf');
      writeFileSync(
        file,
        [
          `port ${port}`,
          'bind 127.0.0.1',
          `dir ${dir}`,
          `sentinel monitor ${SENTINEL_NAME} 127.0.0.1 ${masterPort} 2`,
          `sentinel down-after-milliseconds ${SENTINEL_NAME} 1000`,
          `sentinel failover-timeout ${SENTINEL_NAME} 5000`,
          `sentinel parallel-syncs ${SENTINEL_NAME} 1`,
          '',
        ].join('\n'),
      );
      this.launch(`sentinel-${port}`, 'redis-server', [file, '--sentinel']);
    }
    for (const port of SENTINEL_PORTS) await waitForPort(port, 10_000);
    log(`engines: Redis master, ${REDIS_PORTS.length - 1} replicas and ${SENTINEL_PORTS.length} Sentinels in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }

  /** The port of the master the Sentinels name. */
  async redisMaster(): Promise<number | undefined> {
    for (const port of SENTINEL_PORTS) {
      const answer = await run('redis-cli', ['-p', String(port), 'SENTINEL', 'get-master-addr-by-name', SENTINEL_NAME]).catch(() => undefined);
      const masterPort = Number(answer?.stdout.trim().split('\n')[1]);
      if (Number.isInteger(masterPort) && masterPort > 0) return masterPort;
    }
    return undefined;
  }

  killRedis(port: number): void {
    this.signal(`redis-${port}`, 'SIGKILL');
  }

  /** Starts a killed Redis again, as a replica of the master the Sentinels now name. */
  async restartRedisAsReplica(port: number): Promise<void> {
    this.relaunch(`redis-${port}`);
    await waitForPort(port, 10_000);
    const master = await this.redisMaster();
    if (master && master !== port) await run('redis-cli', ['-p', String(port), 'REPLICAOF', '127.0.0.1', String(master)]);
  }

  // --- processes --------------------------------------------------------

  private folder(name: string): string {
    const dir = join(this.dir, name);
    mkdirSync(dir, { recursive: true });
    return dir;
  }

  private launch(name: string, command: string, args: readonly string[], options: { env?: NodeJS.ProcessEnv; cwd?: string; uid?: number; gid?: number } = {}): void {
    const logFile = join(this.folder(name), 'process.log');
    const start = () => {
      const out = openSync(logFile, 'a');
      // Its own process group: `stop` ends it with whatever it started (a postmaster, Erlang's helpers).
      const child = spawn(command, args, { ...options, cwd: options.cwd ?? this.folder(name), stdio: ['ignore', out, out], detached: true });
      child.on('error', () => undefined);
      return child;
    };
    this.processes.set(name, { name, restart: start, child: start() });
  }

  private relaunch(name: string): void {
    const started = this.processes.get(name);
    if (!started) throw new Error(`never started: ${name}`);
    started.child = started.restart();
  }

  private signal(name: string, signal: NodeJS.Signals): void {
    const pid = this.processes.get(name)?.child.pid;
    if (pid) killQuietly(pid, signal);
  }

  /** Ends every process it started (each whole process group) and removes its folder. */
  async stop(): Promise<void> {
    for (const { child } of this.processes.values()) {
      if (child.pid) killGroup(child.pid);
    }
    // Patroni starts each postmaster in a session of its own.
    for (const member of PG_MEMBERS) {
      const postmaster = postmasterOf(join(this.dir, member.name));
      if (postmaster) killGroup(postmaster);
    }
    // Erlang's port mapper daemon is shared with the machine's own broker: left running.
    await new Promise((resolve) => setTimeout(resolve, 500));
    rmSync(this.dir, { recursive: true, force: true });
  }
}

function patroniConfig(member: (typeof PG_MEMBERS)[number], dir: string, bin: string): string {
  return `scope: gateway-ha
name: ${member.name}
restapi:
  listen: 127.0.0.1:${member.restPort}
  connect_address: 127.0.0.1:${member.restPort}
etcd3:
  hosts: ${ETCD_MEMBERS.map((m) => `127.0.0.1:${m.clientPort}`).join(',')}
bootstrap:
  dcs:
    ttl: 10
    loop_wait: 2
    retry_timeout: 3
    maximum_lag_on_failover: 1048576
    synchronous_mode: true
    postgresql:
      use_pg_rewind: true
      parameters:
        max_connections: 300
        wal_log_hints: 'on'
        hot_standby: 'on'
  initdb:
    - encoding: UTF8
    - locale: C.UTF-8
  pg_hba:
    - local all all trust
    - host all all 127.0.0.1/32 trust
    - host replication all 127.0.0.1/32 trust
postgresql:
  listen: 127.0.0.1:${member.port}
  connect_address: 127.0.0.1:${member.port}
  data_dir: ${join(dir, 'data')}
  bin_dir: ${bin}
  pgpass: ${join(dir, 'pgpass')}
  authentication:
    superuser:
      username: postgres
      password: postgres
    replication:
      username: replicator
      password: replicator
    rewind:
      username: postgres
      password: postgres
  parameters:
    unix_socket_directories: '${dir}'
`;
}

/** The postmaster's pid of a member's folder, while it runs. */
function postmasterOf(dir: string): number | undefined {
  const pidFile = join(dir, 'data', 'postmaster.pid');
  const pid = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8').split('\n')[0]) : Number.NaN;
  return Number.isInteger(pid) && pid > 1 ? pid : undefined;
}

function haproxyConfig(): string {
  return `global
  maxconn 2000
defaults
  mode tcp
  timeout connect 2s
  timeout client 30m
  timeout server 30m
  timeout check 1s
listen postgres
  bind 127.0.0.1:${HAPROXY_PORT}
  option httpchk GET /primary
  http-check expect status 200
  default-server inter 1s fall 2 rise 1 on-marked-down shutdown-sessions
${PG_MEMBERS.map((m) => `  server ${m.name} 127.0.0.1:${m.port} check port ${m.restPort}`).join('\n')}
`;
}

async function postgresMajor(): Promise<string> {
  const { stdout } = await run('pg_config', ['--version']).catch(() => ({ stdout: 'PostgreSQL 15' }));
  return /PostgreSQL (\d+)/.exec(stdout)?.[1] ?? '15';
}

async function patroniJson<T>(port: number, path: string): Promise<T | undefined> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(1_000) });
    return (await response.json()) as T;
  } catch {
    return undefined;
  }
}

async function patroniRole(port: number): Promise<string | undefined> {
  const answer = await patroniJson<{ role?: string; state?: string }>(port, '/patroni');
  return answer?.state === 'running' ? (answer.role === 'master' ? 'primary' : answer.role) : undefined;
}

/** Whether a new connection to `url` reaches a server that takes writes (not a standby). */
async function writable(url: string): Promise<boolean> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1_000 });
  // A member that Patroni restarts while we ask drops the connection; that is a "no", not a crash.
  client.on('error', () => undefined);
  try {
    await client.connect();
    const { rows } = await client.query<{ standby: boolean }>('SELECT pg_is_in_recovery() AS standby');
    return rows[0]?.standby === false;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = tcpConnect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function waitForPort(port: number, timeoutMs: number): Promise<void> {
  await waitFor(() => portOpen(port), timeoutMs, `port ${port}`);
}

async function waitFor(test: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await test())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

function killQuietly(pid: number, signal: NodeJS.Signals = 'SIGKILL'): void {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    killQuietly(pid);
  }
}
