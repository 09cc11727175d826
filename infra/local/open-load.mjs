// An open-model load generator: requests leave at a fixed rate whatever the
// answers do, and each latency is measured from the moment its request was
// due, so a slow answer (or a stalled generator) can never hide a queue.
// autocannon's -R is not this: it gives each connection a quota per second,
// and the connections spend it back to back at the start of every second.
import http from 'node:http';

/**
 * Sends `rate` requests a second for `seconds`; `next(i)` gives the i-th
 * request as { method, path, headers, body }. Resolves with latencies (ms) and counts.
 */
export function openLoad({ url, rate, seconds, next, maxSockets = 1024 }) {
  const target = new URL(url);
  const agent = new http.Agent({ keepAlive: true, maxSockets });
  const total = Math.round(rate * seconds);
  const latencies = new Float64Array(total);
  const statuses = new Map();
  let sent = 0;
  let done = 0;
  let errors = 0;
  const start = performance.now();

  return new Promise((resolve) => {
    const finish = () => {
      agent.destroy();
      resolve({ latencies: Array.from(latencies.subarray(0, done)).sort((a, b) => a - b), statuses, errors, sent, seconds: (performance.now() - start) / 1000 });
    };
    const fire = (i, due) => {
      const { method, path, headers = {}, body } = next(i);
      const req = http.request({ agent, host: target.hostname, port: target.port, method, path, headers: body ? { ...headers, 'content-length': Buffer.byteLength(body) } : headers }, (res) => {
        res.resume();
        res.on('end', () => {
          latencies[done] = performance.now() - due;
          done += 1;
          statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
          if (done + errors === total) finish();
        });
      });
      req.on('error', () => {
        errors += 1;
        if (done + errors === total) finish();
      });
      if (body) req.write(body);
      req.end();
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

/** The value at quantile q (0..1) of sorted latencies. */
export function quantile(sorted, q) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}
