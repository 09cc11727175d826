// An open-model load generator: requests leave at a fixed rate whatever the
// answers do, and each latency is measured from the moment its request was
// due, so a slow answer (or a stalled generator) can never hide a queue.
// autocannon's -R is not this: it gives each connection a quota per second,
// and the connections spend it back to back at the start of every second.
//
// It speaks HTTP/1.1 over raw keep-alive sockets, one request in flight per
// socket, opening another socket when all are busy: the generator shares the
// machine with the system it measures, so it must cost little.
import net from 'node:net';

const HEAD_END = Buffer.from('\r\n\r\n');

/** One keep-alive socket with at most one request in flight; answers need a Content-Length. */
class Connection {
  constructor(host, port, onResponse) {
    this.socket = net.connect({ host, port, noDelay: true });
    this.buffer = Buffer.alloc(0);
    this.pending = undefined;
    this.socket.on('data', (chunk) => this.read(chunk, onResponse));
    this.socket.on('error', () => this.fail(onResponse));
    this.socket.on('close', () => this.fail(onResponse));
  }

  send(bytes, pending) {
    this.pending = pending;
    this.socket.write(bytes);
  }

  read(chunk, onResponse) {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    const end = this.buffer.indexOf(HEAD_END);
    if (end < 0) return;
    const head = this.buffer.toString('latin1', 0, end);
    const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
    const total = end + 4 + length;
    if (this.buffer.length < total) return;
    const status = Number(head.slice(9, 12));
    const body = this.buffer.subarray(end + 4, total);
    this.buffer = this.buffer.subarray(total);
    const pending = this.pending;
    this.pending = undefined;
    if (pending) onResponse(this, pending, status, head, body);
  }

  fail(onResponse) {
    const pending = this.pending;
    this.pending = undefined;
    this.dead = true;
    if (pending) onResponse(this, pending, 0);
  }
}

/** The bytes of one HTTP/1.1 request. */
function requestBytes(host, { method, path, headers = {}, body }) {
  let head = `${method} ${path} HTTP/1.1\r\nhost: ${host}\r\nconnection: keep-alive\r\n`;
  for (const [name, value] of Object.entries(headers)) head += `${name}: ${value}\r\n`;
  const payload = body ? Buffer.from(body) : undefined;
  head += payload ? `content-length: ${payload.length}\r\n\r\n` : '\r\n';
  return payload ? Buffer.concat([Buffer.from(head, 'latin1'), payload]) : Buffer.from(head, 'latin1');
}

/**
 * Keep-alive sockets to one origin, opened as needed. `exchange` resolves with
 * { status, head, text }; status 0 when the connection failed.
 */
export class HttpClient {
  constructor(origin) {
    const target = new URL(origin);
    this.host = `${target.hostname}:${target.port}`;
    this.hostname = target.hostname;
    this.port = Number(target.port);
    this.idle = [];
    this.all = [];
    this.onResponse = (connection, resolve, status, head = '', body = Buffer.alloc(0)) => {
      if (!connection.dead) this.idle.push(connection);
      resolve({ status, head, text: body.toString('utf8') });
    };
  }

  exchange(request) {
    const bytes = requestBytes(this.host, request);
    let connection = this.idle.pop();
    if (!connection) {
      connection = new Connection(this.hostname, this.port, this.onResponse);
      this.all.push(connection);
    }
    return new Promise((resolve) => connection.send(bytes, resolve));
  }

  close() {
    for (const c of this.all) c.socket.destroy();
  }
}

/**
 * Sends `rate` requests a second for `seconds`; `next(i)` gives the i-th
 * request as { method, path, headers, body, onAnswer? } (onAnswer is given the
 * status, 0 when the connection failed). Resolves with sorted latencies
 * (ms), status counts and errors.
 */
export function openLoad({ url, rate, seconds, next }) {
  const target = new URL(url);
  const host = `${target.hostname}:${target.port}`;
  const total = Math.round(rate * seconds);
  const latencies = new Float64Array(total);
  const statuses = new Map();
  const idle = [];
  const all = [];
  let sent = 0;
  let done = 0;
  let errors = 0;
  const start = performance.now();

  return new Promise((resolve) => {
    const finish = () => {
      for (const c of all) c.socket.destroy();
      resolve({ latencies: Array.from(latencies.subarray(0, done)).sort((a, b) => a - b), statuses, errors, sent, seconds: (performance.now() - start) / 1000 });
    };
    const onResponse = (connection, pending, status) => {
      if (status === 0) errors += 1;
      else {
        latencies[done] = performance.now() - pending.due;
        done += 1;
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
      pending.onAnswer?.(status);
      if (!connection.dead) idle.push(connection);
      if (done + errors === total) finish();
    };
    const fire = (i, due) => {
      let connection = idle.pop();
      if (!connection) {
        connection = new Connection(target.hostname, Number(target.port), onResponse);
        all.push(connection);
      }
      const request = next(i);
      connection.send(requestBytes(host, request), { due, onAnswer: request.onAnswer });
    };
    const tick = () => {
      const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * rate) + 1);
      while (sent < due) {
        fire(sent, start + (sent * 1000) / rate);
        sent += 1;
      }
      if (sent < total) setTimeout(tick, 1);
    };
    tick();
  });
}

/**
 * Starts `rate` flows a second for `seconds` (open model: flow i is due at
 * start + i / rate, whatever the earlier ones do) and waits for them all;
 * `run(i, due)` is one flow, its failure reported to `fail`. Resolves with the
 * seconds from the first due time to the last flow's end.
 */
export async function openArrivals({ rate, seconds, run, fail }) {
  const start = performance.now();
  const total = Math.round(rate * seconds);
  const inFlight = [];
  for (let i = 0; i < total; i += 1) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    inFlight.push(run(i, due).catch((err) => fail(err.name ?? 'error')));
  }
  await Promise.all(inFlight);
  return (performance.now() - start) / 1000;
}

/** The value at quantile q (0..1) of sorted latencies. */
export function quantile(sorted, q) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}
