#!/usr/bin/env node
// express 5 against fastify on the gateway's hot path: create a session and
// get a session through a gateway process, with its key check, budgets
// (Redis), body checks and the command to the session service (RabbitMQ,
// PostgreSQL). Both gateways run at once beside one test system (session
// service, database, broker), built by startGateway with the same
// dependencies; only the HTTP stack differs (express-api.mjs against the
// fastify app the gateway ships). The same
// autocannon settings for both, interleaved run by run (the order flips
// each run), medians reported with the load average.
//
//   npm run build && node bench/http-stack/run.mjs [--runs 3] [--duration 10] [--connections 32] [--out FILE]
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { sessionRequest, TestSystem } from '@gateway/testkit';

const here = path.dirname(fileURLToPath(import.meta.url));
const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '32' },
    out: { type: 'string' },
  },
});
const runs = Number(args.runs);
const duration = Number(args.duration);
const connections = Number(args.connections);
const STACKS = ['express', 'fastify'];

const system = await TestSystem.start({ services: ['api-gateway', 'session', 'webhook-dispatcher'] });
const children = [];
try {
  const ports = {};
  const pids = {};
  const sessionPid = system.processes.get('session').child.pid;
  const gatewayEnv = { ...system.env, ...system.envOf('api-gateway'), DATABASE_URL: system.db.urlFor('api-gateway') };
  for (const stack of STACKS) ports[stack] = await startGateway(stack, gatewayEnv, pids);
  const merchant = await system.newMerchant({ limits: { account: 100_000, create: 100_000 } });
  const auth = { authorization: `Bearer ${merchant.testKey}`, 'content-type': 'application/json' };

  // A session to read, made through each stack: both must answer the same.
  const sessionIds = {};
  for (const stack of STACKS) {
    const res = await fetch(`http://127.0.0.1:${ports[stack]}/api/v1/gateway/sessions/`, { method: 'POST', headers: auth, body: JSON.stringify(sessionRequest()) });
    if (res.status !== 201) throw new Error(`${stack}: create answered ${res.status}: ${await res.text()}`);
    sessionIds[stack] = (await res.json()).id;
  }

  let counter = 0;
  const scenarios = {
    create: (port) => ({
      url: `http://127.0.0.1:${port}/api/v1/gateway/sessions/`,
      requests: [{ method: 'POST', headers: auth, setupRequest: (req) => ({ ...req, body: JSON.stringify(sessionRequest({ merchant_reference: `bench-${process.pid}-${counter++}` })) }) }],
    }),
    get: (port, stack) => ({ url: `http://127.0.0.1:${port}/api/v1/gateway/sessions/${sessionIds[stack]}/`, headers: auth }),
  };

  const samples = [];
  for (let run = 1; run <= runs; run += 1) {
    const order = run % 2 === 1 ? STACKS : [...STACKS].reverse();
    for (const scenario of Object.keys(scenarios)) {
      for (const stack of order) {
        const cpuBefore = cpuSeconds(pids[stack]);
        const sessionBefore = cpuSeconds(sessionPid);
        const result = await autocannon({ ...scenarios[scenario](ports[stack], stack), connections, duration, pipelining: 1 });
        const cpu = cpuSeconds(pids[stack]) - cpuBefore;
        const sessionCpu = cpuSeconds(sessionPid) - sessionBefore;
        const perRequest = (seconds) => Number(((seconds * 1000) / Math.max(1, result.requests.total)).toFixed(3));
        const sample = {
          run,
          scenario,
          stack,
          requestsPerSecond: result.requests.average,
          // The gateway process's own CPU per answer: what the stack costs, less swayed than throughput by other load on the machine.
          gatewayCpuMsPerRequest: perRequest(cpu),
          // With the session service's: the share of the path the two stacks' difference is measured against (PostgreSQL and RabbitMQ, shared with other work here, do the same for both).
          gatewayAndSessionCpuMsPerRequest: perRequest(cpu + sessionCpu),
          p50Ms: result.latency.p50,
          p99Ms: result.latency.p99,
          non2xx: result.non2xx,
          errors: result.errors + result.timeouts,
          loadAverage1m: Number(os.loadavg()[0].toFixed(2)),
        };
        samples.push(sample);
        process.stderr.write(`${JSON.stringify(sample)}\n`);
      }
    }
  }

  const median = (values) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)];
  };
  const summary = {};
  for (const scenario of Object.keys(scenarios)) {
    summary[scenario] = {};
    for (const stack of STACKS) {
      const mine = samples.filter((s) => s.scenario === scenario && s.stack === stack);
      summary[scenario][stack] = {
        requestsPerSecond: Math.round(median(mine.map((s) => s.requestsPerSecond))),
        gatewayCpuMsPerRequest: median(mine.map((s) => s.gatewayCpuMsPerRequest)),
        gatewayAndSessionCpuMsPerRequest: median(mine.map((s) => s.gatewayAndSessionCpuMsPerRequest)),
        p50Ms: median(mine.map((s) => s.p50Ms)),
        p99Ms: median(mine.map((s) => s.p99Ms)),
        non2xx: mine.reduce((n, s) => n + s.non2xx, 0),
      };
    }
    const { express, fastify } = summary[scenario];
    summary[scenario].fastifyOverExpress = {
      requestsPerSecond: Number((fastify.requestsPerSecond / express.requestsPerSecond).toFixed(3)),
      gatewayCpuPerRequest: Number((fastify.gatewayCpuMsPerRequest / express.gatewayCpuMsPerRequest).toFixed(3)),
      gatewayAndSessionCpuPerRequest: Number((fastify.gatewayAndSessionCpuMsPerRequest / express.gatewayAndSessionCpuMsPerRequest).toFixed(3)),
    };
  }
  const report = {
    date: new Date().toISOString(),
    machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version },
    settings: { runs, duration, connections, pipelining: 1 },
    loadAverageAtEnd: os.loadavg().map((n) => Number(n.toFixed(2))),
    summary,
    samples,
  };
  const text = `${JSON.stringify(report, null, 2)}\n`;
  if (args.out) writeFileSync(args.out, text);
  process.stdout.write(text);
} finally {
  for (const child of children) child.kill('SIGTERM');
  await system.shutdown();
}

/** User plus system CPU seconds a process has used (Linux /proc). */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Starts bench/http-stack/gateway.mjs with `stack` and the system's gateway environment; resolves its port. */
function startGateway(stack, env, pids) {
  const child = spawn(process.execPath, [path.join(here, 'gateway.mjs'), stack], { env: { ...process.env, ...env, PORT: '0', LOG_LEVEL: 'warn' }, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  pids[stack] = child.pid;
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${stack} gateway exited with ${code}`)));
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line.startsWith('{"ready"')) resolve(JSON.parse(line).port);
    });
  });
}
