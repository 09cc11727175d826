#!/usr/bin/env node
// The `broker-setup` one-shot of docker-compose.yml. It shares the rabbitmq
// container's network namespace (network_mode: service:rabbitmq), so it reaches the
// management API on 127.0.0.1, where the default guest user may log in. It:
//   1. creates the broker user of every service and of the operators' CLI (D17), as
//      the definitions name them in their permissions (`gw.<service>`), each with the
//      password in BROKER_PASSWORD_<SERVICE> (API_GATEWAY, SESSION, ...,
//      GATEWAY_ADMIN), because guest may not log in from another container;
//   2. imports infra/rabbitmq/definitions.json (exchanges, queues, bindings, and each
//      user's permissions, which need the users to exist first).
// The broker itself keeps its stock configuration (infra/local/servers.mjs starts it
// for the tests with guest on 127.0.0.1).
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

const api = process.env.RABBITMQ_API_URL ?? 'http://127.0.0.1:15672/api';
const auth = `Basic ${Buffer.from(`${process.env.RABBITMQ_ADMIN_USER ?? 'guest'}:${process.env.RABBITMQ_ADMIN_PASSWORD ?? 'guest'}`).toString('base64')}`;
const file = process.argv[2] ?? '/definitions.json';
const definitions = JSON.parse(readFileSync(file, 'utf8'));

async function call(method, route, body) {
  const response = await fetch(`${api}${route}`, {
    method,
    headers: { authorization: auth, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${await response.text()}`);
}

/** The password variable of user `gw.<principal>`: BROKER_PASSWORD_<PRINCIPAL>. */
function passwordOf(user) {
  const name = `BROKER_PASSWORD_${user.slice(user.indexOf('.') + 1).toUpperCase().replaceAll('-', '_')}`;
  const password = process.env[name];
  if (!password) throw new Error(`${name} is not set: the password of broker user ${user}`);
  return password;
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
const users = definitions.permissions.map((permission) => permission.user);
for (const user of users) await call('PUT', `/users/${encodeURIComponent(user)}`, { password: passwordOf(user), tags: '' });
await call('POST', '/definitions', definitions);
// A volume made before D17 still holds the one user every service shared, with every right.
await call('DELETE', '/users/gateway').catch(() => undefined);
console.log(`broker-setup: users ${users.join(', ')} created; definitions imported from ${file}`);
