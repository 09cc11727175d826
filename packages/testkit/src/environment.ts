/**
 * Where the tests' PostgreSQL, RabbitMQ and Redis are. With a Docker engine the
 * servers are started as containers (testcontainers); without one the local
 * servers named by environment URLs serve. The tests are the same either way.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { connect as tcpConnect } from 'node:net';

const run = promisify(execFile);

interface TestEnvironment {
  /** A superuser URL on the `postgres` database, for creating per-run databases and roles. */
  readonly adminUrl: string;
  /** AMQP_URL as the services take it: one broker, or a cluster's nodes comma-separated (D23). */
  readonly amqpUrl: string;
  /** Each node of amqpUrl; the tests' own connections go to the first. */
  readonly amqpUrls: readonly string[];
  readonly redisUrl: string;
  readonly kind: 'containers' | 'local';
  /** Restarts the broker and waits until it takes connections again. */
  restartBroker(): Promise<void>;
  /** Runs rabbitmqctl with `args` where the broker runs. */
  brokerCtl(args: readonly string[]): Promise<void>;
  /** Imports RabbitMQ definitions (users, permissions, exchanges...) into the broker: one rabbitmqctl call. */
  importBrokerDefinitions(definitions: Record<string, unknown>): Promise<void>;
  /** The SQL dump (pg_dump) of database `name`, data included. */
  dumpDatabase(name: string): Promise<string>;
  stop(): Promise<void>;
}

let environment: Promise<TestEnvironment> | undefined;

/** The environment of this test run, created once. */
export function testEnvironment(): Promise<TestEnvironment> {
  environment ??= dockerEngineAvailable().then((docker) => (docker ? containerEnvironment() : localEnvironment()));
  return environment;
}

async function dockerEngineAvailable(): Promise<boolean> {
  if (process.env['TESTCONTAINERS'] === 'off') return false;
  if (!process.env['DOCKER_HOST'] && !existsSync('/var/run/docker.sock')) return false;
  try {
    await run('docker', ['info'], { timeout: 5_000 });
    return true;
  } catch {
    return false;
  }
}

function localEnvironment(): TestEnvironment {
  const amqpUrl = process.env['AMQP_URL'] ?? 'amqp://guest:guest@127.0.0.1:5672';
  const amqpUrls = amqpUrl.split(',').map((url) => url.trim());
  // rabbitmqctl talks to the machine's broker, or to the node RABBITMQ_CTL_NODE names (a cluster's).
  const node = process.env['RABBITMQ_CTL_NODE'];
  const ctl = (args: readonly string[], timeout = 60_000) => run('rabbitmqctl', [...(node ? ['-n', node] : []), ...args], { timeout });
  return {
    kind: 'local',
    adminUrl: process.env['DATABASE_ADMIN_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    amqpUrl,
    amqpUrls,
    redisUrl: process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379',
    async restartBroker() {
      await ctl(['stop_app']);
      await ctl(['start_app'], 120_000);
      await waitForPort(new URL(amqpUrls[0] as string), 60_000);
    },
    async brokerCtl(args) {
      await ctl(args);
    },
    async importBrokerDefinitions(definitions) {
      // rabbitmqctl runs as the broker's own user where it is installed as a service: the file must be readable to it.
      const file = join(tmpdir(), `broker-definitions-${randomUUID()}.json`);
      await writeFile(file, JSON.stringify(definitions), { mode: 0o644 });
      try {
        await ctl(['-q', 'import_definitions', file]);
      } finally {
        await rm(file, { force: true });
      }
    },
    async dumpDatabase(name) {
      const url = new URL(process.env['DATABASE_ADMIN_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres');
      url.pathname = `/${name}`;
      const { stdout } = await run('pg_dump', ['--dbname', url.toString()], { timeout: 60_000, maxBuffer: 256 * 1024 * 1024 });
      return stdout;
    },
    async stop() {},
  };
}

async function containerEnvironment(): Promise<TestEnvironment> {
  const { GenericContainer, Wait } = await import('testcontainers');
  const [postgres, rabbit, redis] = await Promise.all([
    new GenericContainer('postgres:15')
      .withEnvironment({ POSTGRES_HOST_AUTH_METHOD: 'trust' })
      .withExposedPorts(5432)
      .withWaitStrategy(Wait.forLogMessage(/database system is ready to accept connections/, 2))
      .start(),
    new GenericContainer('rabbitmq:3.13').withExposedPorts(5672).withWaitStrategy(Wait.forLogMessage(/Server startup complete/)).start(),
    new GenericContainer('redis:7').withCommand(['redis-server', '--save', '', '--appendonly', 'no']).withExposedPorts(6379).start(),
  ]);
  const amqpUrl = `amqp://guest:guest@${rabbit.getHost()}:${rabbit.getMappedPort(5672)}`;
  return {
    kind: 'containers',
    adminUrl: `postgres://postgres@${postgres.getHost()}:${postgres.getMappedPort(5432)}/postgres`,
    amqpUrl,
    amqpUrls: [amqpUrl],
    redisUrl: `redis://${redis.getHost()}:${redis.getMappedPort(6379)}`,
    async restartBroker() {
      // Restarting the application inside the container keeps the mapped port.
      await rabbit.exec(['rabbitmqctl', 'stop_app']);
      await rabbit.exec(['rabbitmqctl', 'start_app']);
      await waitForPort(new URL(amqpUrl), 60_000);
    },
    async brokerCtl(args) {
      await rabbit.exec(['rabbitmqctl', ...args]);
    },
    async importBrokerDefinitions(definitions) {
      const file = `/tmp/broker-definitions-${randomUUID()}.json`;
      await rabbit.copyContentToContainer([{ content: JSON.stringify(definitions), target: file, mode: 0o644 }]);
      const { exitCode, output } = await rabbit.exec(['rabbitmqctl', '-q', 'import_definitions', file]);
      await rabbit.exec(['rm', '-f', file]);
      if (exitCode !== 0) throw new Error(`rabbitmqctl import_definitions failed: ${output}`);
    },
    async dumpDatabase(name) {
      return (await postgres.exec(['pg_dump', '-U', 'postgres', '--dbname', name])).output;
    },
    async stop() {
      await Promise.all([postgres.stop(), rabbit.stop(), redis.stop()]);
    },
  };
}

/** Waits until an AMQP server at `url` answers the protocol header. */
async function waitForPort(url: URL, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = tcpConnect({ host: url.hostname, port: Number(url.port || 5672) });
      const done = (value: boolean) => {
        socket.destroy();
        resolve(value);
      };
      socket.setTimeout(1_000, () => done(false));
      socket.on('error', () => done(false));
      socket.on('connect', () => socket.write(Buffer.from('AMQP\x00\x00\x09\x01', 'latin1')));
      socket.on('data', (data) => done(data[0] === 1));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`broker at ${url.host} did not come back within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
