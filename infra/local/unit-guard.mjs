// Loaded by the unit run (.mocharc.unit.json): a test under a test/unit folder
// that reaches for a server fails at once instead of passing on a machine
// where the servers happen to run. Refused: child processes, connections to
// the ports of PostgreSQL, RabbitMQ and Redis, and to any address but this
// machine's. A test's own loopback listener (an HTTP client test) is allowed.
import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';

const SERVER_PORTS = new Map([
  [5432, 'PostgreSQL'],
  [5672, 'RabbitMQ'],
  [15672, 'RabbitMQ management'],
  [6379, 'Redis'],
]);
const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1', '::ffff:127.0.0.1']);

class NeedsAServer extends Error {
  constructor(what) {
    super(`a unit test ${what}: unit tests run without servers; put this test in a component folder`);
    this.name = 'NeedsAServer';
  }
}

/** The port and host a Socket#connect call names (options object, or port and host). */
function target(args) {
  const [first, second] = Array.isArray(args[0]) ? args[0] : args;
  if (first !== null && typeof first === 'object') return { port: Number(first.port), host: first.host ?? 'localhost', path: first.path };
  if (typeof first === 'string' && !/^\d+$/.test(first)) return { path: first };
  return { port: Number(first), host: typeof second === 'string' ? second : 'localhost' };
}

const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function guardedConnect(...args) {
  const { port, host, path } = target(args);
  if (path === undefined) {
    if (SERVER_PORTS.has(port)) throw new NeedsAServer(`connects to ${SERVER_PORTS.get(port)} (port ${port})`);
    // A name may resolve to loopback through a test's own lookup; an address literal says where it goes.
    if (net.isIP(String(host)) !== 0 && !LOOPBACK.has(String(host))) throw new NeedsAServer(`connects to ${host}:${port}`);
  }
  return connect.apply(this, args);
};

for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork']) {
  childProcess[name] = () => {
    throw new NeedsAServer(`starts a child process (${name})`);
  };
}
// `import { spawn } from 'node:child_process'` sees the guarded functions too.
syncBuiltinESMExports();
