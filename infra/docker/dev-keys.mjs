#!/usr/bin/env node
// Development keys for docker-compose.yml (the `dev-keys` one-shot runs this in a
// plain node image; built-in modules only). Writes, once, into DIR (default /keys):
//   link-private.jwk   Ed25519, session's LINK_SIGNING_KEY
//   link-public.jwk    its public half, checkout's LINK_VERIFY_KEY
//   card-private.jwk   ECDH P-256, acquirer-adapter's CARD_DECRYPTION_KEY
//   card-public.jwk    its public half, checkout's CARD_ENCRYPTION_KEY
//   secrets-kek        32 random bytes in base64, the SECRETS_KEK of api-gateway,
//                      acquirer-adapter and webhook-dispatcher (D17)
//   operator-private.jwk  Ed25519, the operator's key gateway-admin signs with (OPERATOR_KEY, D17)
//   operator-public.jwk   its public half
//   dashboard-private.jwk Ed25519, the dashboard's DASHBOARD_SIGNING_KEY: it signs the commands of the
//                         people signed in to it (D14, D15)
//   dashboard-public.jwk  its public half
//   operator-public-keys.json  the JWKS {"keys":[operator, dashboard]}: OPERATOR_PUBLIC_KEYS of every
//                         service that runs operator commands (rewritten each run from the two public keys)
// Existing keys are kept, so links, sealed card data and stored secrets survive a restart.
// DEVELOPMENT ONLY: production keys come from Kubernetes Secrets (k8s/README.md).
import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const dir = process.argv[2] ?? '/keys';
const owner = Number(process.env.KEYS_UID ?? 1000); // the services' user in the image
mkdirSync(dir, { recursive: true });

function write(name, content, mode) {
  const file = path.join(dir, name);
  writeFileSync(file, content);
  if (process.getuid?.() === 0) chownSync(file, owner, owner);
  chmodSync(file, mode);
}

/** The RFC 7638 thumbprint of an Ed25519 public JWK: the kid services know an operator's key by. */
function thumbprint({ crv, kty, x }) {
  return createHash('sha256').update(JSON.stringify({ crv, kty, x })).digest('base64url');
}

function pair(prefix, type, options, { named = false } = {}) {
  if (existsSync(path.join(dir, `${prefix}-private.jwk`)) && existsSync(path.join(dir, `${prefix}-public.jwk`))) {
    console.log(`dev-keys: ${prefix} key pair kept`);
    return;
  }
  // JWKs straight from the generator: exporting a key it has just made can deadlock Node 20.
  const { privateKey, publicKey } = generateKeyPairSync(type, { ...options, publicKeyEncoding: { format: 'jwk' }, privateKeyEncoding: { format: 'jwk' } });
  const kid = named ? { kid: thumbprint(publicKey) } : {};
  write(`${prefix}-private.jwk`, JSON.stringify({ ...privateKey, ...kid }), 0o400);
  write(`${prefix}-public.jwk`, JSON.stringify({ ...publicKey, ...kid }), 0o444);
  console.log(`dev-keys: ${prefix} key pair written to ${dir}`);
}

/** The key-encryption key: with another one, the secrets already stored could not be read. */
function kek(name) {
  if (existsSync(path.join(dir, name))) {
    console.log(`dev-keys: ${name} kept`);
    return;
  }
  write(name, randomBytes(32).toString('base64'), 0o400);
  console.log(`dev-keys: ${name} written to ${dir}`);
}

pair('link', 'ed25519');
pair('card', 'ec', { namedCurve: 'P-256' });
pair('operator', 'ed25519', {}, { named: true });
pair('dashboard', 'ed25519', {}, { named: true });
kek('secrets-kek');
const keys = ['operator', 'dashboard'].map((prefix) => JSON.parse(readFileSync(path.join(dir, `${prefix}-public.jwk`), 'utf8')));
// Read-only once written: removed first, so that a run by its owner (not root) can write it again.
rmSync(path.join(dir, 'operator-public-keys.json'), { force: true });
write('operator-public-keys.json', JSON.stringify({ keys }), 0o444);
console.log(`dev-keys: operator-public-keys.json (${keys.map((key) => key.kid).join(', ')}) written to ${dir}`);
