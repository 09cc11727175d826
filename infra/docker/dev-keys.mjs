#!/usr/bin/env node
// Development keys for docker-compose.yml (the `dev-keys` one-shot runs this in a
// plain node image, with packages/system/src/keys.mjs mounted beside it at the same
// relative place: built-in modules only, nothing built). Writes, once, into DIR
// (default /keys), as keys.mjs's COMPOSE_FOLDER keeps them:
//   link-private.jwk   Ed25519, session's LINK_SIGNING_KEY
//   link-public.jwk    its public half, checkout's LINK_VERIFY_KEY
//   card-private.jwk   ECDH P-256, acquirer-adapter's CARD_DECRYPTION_KEY
//   card-public.jwk    its public half, checkout's CARD_ENCRYPTION_KEY
//   secrets-kek        32 random bytes in base64, the SECRETS_KEK of the services that keep secrets (D17)
//   operator-private.jwk  Ed25519, the operator's key gateway-admin signs with (OPERATOR_KEY, D17)
//   operator-public.jwk   its public half
//   dashboard-private.jwk Ed25519, the dashboard's DASHBOARD_SIGNING_KEY: it signs the commands of the
//                         people signed in to it (D14, D15)
//   dashboard-public.jwk  its public half
//   operator-public-keys.json  the JWKS {"keys":[operator, dashboard]}: OPERATOR_PUBLIC_KEYS of every
//                         service that runs operator commands (rewritten each run from the two public keys);
//                         the dashboard's is marked "door": "dashboard", so it signs only for a person it names
// Existing keys are kept, so links, sealed card data and stored secrets survive a restart.
// DEVELOPMENT ONLY: production keys come from Kubernetes Secrets (k8s/README.md).
import path from 'node:path';
import { COMPOSE_FOLDER, keptKeys, operatorPublicKeys, writeKeyFile } from '../../packages/system/src/keys.mjs';

const dir = process.argv[2] ?? '/keys';
const owner = Number(process.env.KEYS_UID ?? 1000); // the services' user in the image
const keys = keptKeys(dir, COMPOSE_FOLDER, { owner, log: (line) => console.log(`dev-keys: ${line}`) });
const jwks = operatorPublicKeys(keys);
writeKeyFile(path.join(dir, 'operator-public-keys.json'), jwks, 0o444, owner);
console.log(`dev-keys: operator-public-keys.json (${JSON.parse(jwks).keys.map((key) => key.kid).join(', ')}) written to ${dir}`);
