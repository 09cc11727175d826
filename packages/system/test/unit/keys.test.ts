import assert from 'node:assert/strict';
import { createPrivateKey, createPublicKey, sign, verify, type JsonWebKey } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { COMPOSE_FOLDER, freshKeys, keptKeys, LOCAL_FOLDER, operatorPublicKeys, type KeyPair } from '../../src/index.js';

/** Whether the two halves of an Ed25519 pair belong together: a signature by one checks with the other. */
function halvesMatch(pair: KeyPair): boolean {
  const data = Buffer.from('pair');
  const signature = sign(null, data, createPrivateKey({ key: JSON.parse(pair.privateJwk) as JsonWebKey, format: 'jwk' }));
  return verify(null, data, createPublicKey({ key: JSON.parse(pair.publicJwk) as JsonWebKey, format: 'jwk' }), signature);
}

describe('the system keys', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'system-keys-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('When fresh keys are made, then each pair is of its kind, its halves match, and only the private halves hold d', () => {
    const keys = freshKeys({ operator: 'op' });
    for (const [name, curve] of [['link', 'Ed25519'], ['card', 'P-256'], ['operator', 'Ed25519'], ['dashboard', 'Ed25519']] as const) {
      const [secret, open] = [JSON.parse(keys[name].privateJwk), JSON.parse(keys[name].publicJwk)];
      assert.equal(open.crv, curve, name);
      assert.ok(secret.d && !open.d, name);
    }
    assert.ok(halvesMatch(keys.link) && halvesMatch(keys.operator) && halvesMatch(keys.dashboard));
    assert.equal(Buffer.from(keys.secretsKek, 'base64').length, 32);
    assert.equal(JSON.parse(keys.operator.publicJwk).kid, 'op');
    // Not given: the RFC 7638 thumbprint, as gateway-admin operator keygen names keys.
    assert.match(JSON.parse(keys.dashboard.publicJwk).kid, /^[A-Za-z0-9_-]{43}$/);
    assert.deepEqual(JSON.parse(operatorPublicKeys(keys)).keys.map((key: { kid: string }) => key.kid), ['op', JSON.parse(keys.dashboard.publicJwk).kid]);
  });

  for (const [layout, name] of [[LOCAL_FOLDER, 'make up\'s .local/'], [COMPOSE_FOLDER, 'compose\'s /keys']] as const) {
    it(`When keys are kept in ${name}, then the second run reads the same keys the first wrote, and their files are not readable by others`, () => {
      const first = keptKeys(dir, layout);
      const second = keptKeys(dir, layout);
      assert.deepEqual(second, first);
      for (const file of readdirSync(dir)) assert.equal(statSync(path.join(dir, file)).mode & 0o022, 0, file);
      for (const file of readdirSync(dir).filter((f) => !f.endsWith('public.jwk'))) assert.equal(statSync(path.join(dir, file)).mode & 0o077, 0, file);
    });
  }

  it('When .local/ holds a card pair of another curve, then it is replaced, and the other keys are kept', () => {
    const first = keptKeys(dir, LOCAL_FOLDER);
    const ed = freshKeys().link;
    writeFileSync(path.join(dir, 'card-keys.json'), JSON.stringify({ private: JSON.parse(ed.privateJwk), public: JSON.parse(ed.publicJwk) }));
    const second = keptKeys(dir, LOCAL_FOLDER);
    assert.equal(JSON.parse(second.card.publicJwk).crv, 'P-256');
    assert.deepEqual({ ...second, card: first.card }, first);
  });

  it('When .local/ holds an operator key made by gateway-admin operator keygen, then it is kept, its public half read from it', () => {
    keptKeys(dir, LOCAL_FOLDER);
    const made = JSON.parse(freshKeys({ operator: 'keygen-kid' }).operator.privateJwk) as Record<string, string>;
    writeFileSync(path.join(dir, 'operator-key.jwk'), JSON.stringify({ ...made, alg: 'EdDSA', use: 'sig' }));
    const { operator } = keptKeys(dir, LOCAL_FOLDER);
    assert.deepEqual(JSON.parse(operator.publicJwk), { kty: 'OKP', crv: 'Ed25519', x: made['x'], kid: 'keygen-kid', alg: 'EdDSA', use: 'sig' });
    assert.equal(readFileSync(path.join(dir, 'operator-key.jwk'), 'utf8'), operator.privateJwk);
  });
});
