/**
 * The system's keys, made fresh (a test system, a benchmark) or kept in a folder
 * (`make up`'s .local/, docker-compose's /keys volume), so that links, sealed card
 * data and stored secrets survive a restart.
 *
 *   link        Ed25519: the session service signs checkout links, the checkout service verifies them
 *   card        ECDH P-256: the checkout page seals card data for the acquirer adapter, which alone opens it
 *   operator    Ed25519 with a kid: gateway-admin signs operator commands with it (D17)
 *   dashboard   Ed25519 with a kid: the dashboard signs the commands of the people signed in to it (D14, D15)
 *   secretsKek  32 random bytes in base64: the key-encryption key of the services that keep secrets (D17)
 *
 * Plain JavaScript on built-in modules only: docker-compose's dev-keys one-shot
 * (infra/docker/dev-keys.mjs) runs this file in a plain node image, where no
 * workspace package is installed and nothing is built.
 */
import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** @typedef {{ readonly privateJwk: string, readonly publicJwk: string }} KeyPair  A key pair as JWK JSON text, as the services' settings take them. */
/** @typedef {'link' | 'card' | 'operator' | 'dashboard'} PairName */
/** @typedef {{ readonly link: KeyPair, readonly card: KeyPair, readonly operator: KeyPair, readonly dashboard: KeyPair, readonly secretsKek: string }} SystemKeys */
/** @typedef {{ readonly operator?: string, readonly dashboard?: string }} Kids  The kids of the named pairs; their thumbprints when not given. */

/** The kind of each pair: its generator, its curve, and whether it is named by a kid. */
const KINDS = {
  link: { type: 'ed25519', curve: 'Ed25519', named: false },
  card: { type: 'ec', curve: 'P-256', named: false },
  operator: { type: 'ed25519', curve: 'Ed25519', named: true },
  dashboard: { type: 'ed25519', curve: 'Ed25519', named: true },
};

/** The RFC 7638 thumbprint of an OKP public JWK: the kid services know an operator's key by. */
function thumbprint(/** @type {Record<string, unknown>} */ { crv, kty, x }) {
  return createHash('sha256').update(JSON.stringify({ crv, kty, x })).digest('base64url');
}

/**
 * A new pair of `name`'s kind; a named pair carries `kid`, or its public key's
 * thumbprint. The pair comes out of the generator as JWKs: exporting a KeyObject
 * it has just made can deadlock Node 20, when a collection during the export
 * finalizes the generation job, which locks the same key.
 * @param {PairName} name
 * @param {string} [kid]
 * @returns {KeyPair}
 */
export function newPair(name, kid) {
  const kind = KINDS[name];
  const jwk = /** @type {const} */ ({ publicKeyEncoding: { format: 'jwk' }, privateKeyEncoding: { format: 'jwk' } });
  const { privateKey, publicKey } = kind.type === 'ec' ? generateKeyPairSync('ec', { namedCurve: kind.curve, ...jwk }) : generateKeyPairSync('ed25519', jwk);
  const named = kind.named ? { kid: kid ?? thumbprint(/** @type {Record<string, unknown>} */ (/** @type {unknown} */ (publicKey))) } : {};
  return { privateJwk: JSON.stringify({ ...privateKey, ...named }), publicJwk: JSON.stringify({ ...publicKey, ...named }) };
}

/** A new key-encryption key: 32 random bytes in base64, as SECRETS_KEK takes it. */
export function newSecretsKek() {
  return randomBytes(32).toString('base64');
}

/**
 * Fresh keys for a system of its own (a test system, a benchmark, the image smoke test).
 * @param {Kids} [kids]
 * @returns {SystemKeys}
 */
export function freshKeys(kids = {}) {
  return {
    link: newPair('link'),
    card: newPair('card'),
    operator: newPair('operator', kids.operator),
    dashboard: newPair('dashboard', kids.dashboard),
    secretsKek: newSecretsKek(),
  };
}

/**
 * The public half of a private JWK: the private parts (`d`) left out.
 * @param {string} privateJwk
 */
function publicHalf(privateJwk) {
  const key = JSON.parse(privateJwk);
  delete key.d;
  return JSON.stringify(key);
}

/**
 * How a folder keeps one pair: where it reads it from (undefined when missing or
 * unreadable) and writes it to, with the modes of its files.
 * @typedef {{ read(dir: string): KeyPair | undefined, write(dir: string, pair: KeyPair, save: Save): void }} PairStore
 * @typedef {(file: string, content: string, secret: boolean) => void} Save
 */

/** @param {string} file */
function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * Both halves in one JSON file, `{"private": JWK, "public": JWK}` (`make up`'s link and card keys).
 * @param {string} file
 * @returns {PairStore}
 */
function pairFile(file) {
  return {
    read(dir) {
      const pair = readJson(path.join(dir, file));
      return pair?.private && pair?.public ? { privateJwk: JSON.stringify(pair.private), publicJwk: JSON.stringify(pair.public) } : undefined;
    },
    write(dir, pair, save) {
      save(path.join(dir, file), JSON.stringify({ private: JSON.parse(pair.privateJwk), public: JSON.parse(pair.publicJwk) }), true);
    },
  };
}

/**
 * The private JWK alone, its public half read from it (`make up`'s operator and dashboard keys).
 * @param {string} file
 * @returns {PairStore}
 */
function privateFile(file) {
  return {
    read(dir) {
      const key = readJson(path.join(dir, file));
      return key?.d ? { privateJwk: JSON.stringify(key), publicJwk: publicHalf(JSON.stringify(key)) } : undefined;
    },
    write(dir, pair, save) {
      save(path.join(dir, file), pair.privateJwk, true);
    },
  };
}

/**
 * `<name>-private.jwk` and `<name>-public.jwk` (docker-compose's /keys).
 * @param {string} name
 * @returns {PairStore}
 */
function twoFiles(name) {
  return {
    read(dir) {
      const [privateKey, publicKey] = ['private', 'public'].map((half) => readJson(path.join(dir, `${name}-${half}.jwk`)));
      return privateKey?.d && publicKey ? { privateJwk: JSON.stringify(privateKey), publicJwk: JSON.stringify(publicKey) } : undefined;
    },
    write(dir, pair, save) {
      save(path.join(dir, `${name}-private.jwk`), pair.privateJwk, true);
      save(path.join(dir, `${name}-public.jwk`), pair.publicJwk, false);
    },
  };
}

/**
 * Where a folder keeps each pair, and the key-encryption key; and the folder's own mode, when it is kept.
 * @typedef {{ readonly pairs: Readonly<Record<PairName, PairStore>>, readonly secretsKek: string, readonly privateMode: number, readonly publicMode: number, readonly folderMode?: number }} FolderLayout
 */

/** `make up`'s .local/: files of this machine's user alone. */
export const LOCAL_FOLDER = /** @type {FolderLayout} */ ({
  pairs: { link: pairFile('link-keys.json'), card: pairFile('card-keys.json'), operator: privateFile('operator-key.jwk'), dashboard: privateFile('dashboard-key.jwk') },
  secretsKek: 'secrets-kek',
  privateMode: 0o600,
  publicMode: 0o600,
  folderMode: 0o700,
});

/** docker-compose's dev-keys volume (/keys): read-only files, the private ones readable by their owner alone. */
export const COMPOSE_FOLDER = /** @type {FolderLayout} */ ({
  pairs: { link: twoFiles('link'), card: twoFiles('card'), operator: twoFiles('operator'), dashboard: twoFiles('dashboard') },
  secretsKek: 'secrets-kek',
  privateMode: 0o400,
  publicMode: 0o444,
});

/**
 * The keys kept in `dir` as `layout` keeps them, each made and written there
 * first when missing, or when a pair there is not of its kind (a card pair on
 * another curve). Existing keys are kept: with others, links, sealed card data
 * and stored secrets made before could not be read.
 * @param {string} dir
 * @param {FolderLayout} layout
 * @param {{ owner?: number, log?: (line: string) => void }} [options] `owner`: the uid (and gid) that the files are given when written as root
 * @returns {SystemKeys}
 */
export function keptKeys(dir, layout, { owner, log = () => undefined } = {}) {
  mkdirSync(dir, { recursive: true });
  if (layout.folderMode !== undefined) chmodSync(dir, layout.folderMode);
  /** @type {Save} */
  const save = (file, content, secret) => writeKeyFile(file, content, secret ? layout.privateMode : layout.publicMode, owner);
  /** @param {PairName} name */
  const pair = (name) => {
    const store = layout.pairs[name];
    const kept = store.read(dir);
    if (kept && JSON.parse(kept.publicJwk).crv === KINDS[name].curve) {
      log(`${name} key pair kept`);
      return kept;
    }
    const made = newPair(name);
    store.write(dir, made, save);
    log(`${name} key pair written to ${dir}`);
    return made;
  };
  const kekFile = path.join(dir, layout.secretsKek);
  if (existsSync(kekFile)) log(`${layout.secretsKek} kept`);
  else {
    save(kekFile, newSecretsKek(), true);
    log(`${layout.secretsKek} written to ${dir}`);
  }
  return { link: pair('link'), card: pair('card'), operator: pair('operator'), dashboard: pair('dashboard'), secretsKek: readFileSync(kekFile, 'utf8').trim() };
}

/**
 * Writes `content` to `file` with `mode`, given to `owner` when running as root.
 * A file left read-only by an earlier run is removed first, so that its owner can write it again.
 * @param {string} file
 * @param {string} content
 * @param {number} mode
 * @param {number} [owner]
 */
export function writeKeyFile(file, content, mode, owner) {
  rmSync(file, { force: true });
  writeFileSync(file, content, { mode });
  if (owner !== undefined && process.getuid?.() === 0) chownSync(file, owner, owner);
  chmodSync(file, mode);
}

/**
 * The JWKS of the keys operator commands may be signed with (OPERATOR_PUBLIC_KEYS):
 * `operators` (the operator key's public half when not given), then the dashboard's,
 * marked as a door's key (`"door": "dashboard"`): it signs only for a person it names.
 * @param {SystemKeys} keys
 * @param {readonly object[]} [operators]
 */
export function operatorPublicKeys(keys, operators) {
  return JSON.stringify({ keys: [...(operators ?? [JSON.parse(keys.operator.publicJwk)]), { ...JSON.parse(keys.dashboard.publicJwk), door: 'dashboard' }] });
}
