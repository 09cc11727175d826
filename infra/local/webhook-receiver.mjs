// The benchmark's merchant endpoints, in a process of their own: HTTP servers
// on several loopback ports (several endpoints, as several merchants' hosts
// would be) that verify every signature with the merchants' package and note
// when each event arrived. Driven by IPC from webhook-load.mjs:
//   → { secrets: { [path]: secret } }   ← { ready: [urls] }
//   → { report: true }                  ← { arrivals: [[eventId, atMs, path]...], bad, count }
import { createServer } from 'node:http';
import { verifySignature } from '@gateway/sdk';

const PORTS = Number(process.env.RECEIVER_PORTS ?? 4);
let secrets = {};
let arrivals = [];
let bad = 0;

const now = () => performance.timeOrigin + performance.now();

function handle(req, res) {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const at = now();
    const raw = Buffer.concat(chunks);
    const secret = secrets[req.url];
    const ok = secret !== undefined && verifySignature(raw, String(req.headers['x-service-signature'] ?? ''), secret);
    if (!ok) bad += 1;
    arrivals.push([String(req.headers['x-service-webhook-id'] ?? ''), at, req.url]);
    res.writeHead(ok ? 204 : 400).end();
  });
}

const servers = [];
for (let i = 0; i < PORTS; i += 1) {
  const server = createServer({ keepAliveTimeout: 60_000 }, handle);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
}

process.on('message', (msg) => {
  if (msg.secrets) {
    secrets = msg.secrets;
    process.send({ ready: servers.map((s) => `http://127.0.0.1:${s.address().port}`) });
  } else if (msg.report) {
    process.send({ arrivals, bad, count: arrivals.length });
    arrivals = [];
    bad = 0;
  } else if (msg.exit) {
    for (const s of servers) s.closeAllConnections();
    process.exit(0);
  }
});
process.send({ started: true });
