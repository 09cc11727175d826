#!/usr/bin/env node
// The `broker-setup` one-shot of docker-compose.yml. It shares the rabbitmq
// container's network namespace (network_mode: service:rabbitmq), so it reaches the
// management API on 127.0.0.1, where the default guest user may log in. It:
//   1. imports infra/rabbitmq/definitions.json (exchanges, queues, bindings, policies);
//   2. creates the user the application services connect as (RABBITMQ_APP_USER /
//      RABBITMQ_APP_PASSWORD, full rights on vhost "/"), because guest may not log in
//      from another container.
// The broker itself keeps its stock configuration (infra/local/servers.mjs starts it
// for the tests with guest on 127.0.0.1).
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

const api = process.env.RABBITMQ_API_URL ?? 'http://127.0.0.1:15672/api';
const auth = `Basic ${Buffer.from(`${process.env.RABBITMQ_ADMIN_USER ?? 'guest'}:${process.env.RABBITMQ_ADMIN_PASSWORD ?? 'guest'}`).toString('base64')}`;
const file = process.argv[2] ?? '/definitions.json';
const user = process.env.RABBITMQ_APP_USER ?? 'gateway';
const password = process.env.RABBITMQ_APP_PASSWORD ?? 'gateway-dev';

async function call(method, route, body) {
  const response = await fetch(`${api}${route}`, {
    method,
    headers: { authorization: auth, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${await response.text()}`);
}

const deadline = Date.now() + 120_000;
for (;;) {
  try {
    await call('GET', '/overview');
    break;
  } catch (err) {
    if (Date.now() > deadline) throw err;
    await sleep(1_000);
  }
}
await call('POST', '/definitions', JSON.parse(readFileSync(file, 'utf8')));
await call('PUT', `/users/${encodeURIComponent(user)}`, { password, tags: '' });
await call('PUT', `/permissions/%2F/${encodeURIComponent(user)}`, { configure: '.*', write: '.*', read: '.*' });
console.log(`broker-setup: definitions imported from ${file}; user ${user} may use vhost /`);
