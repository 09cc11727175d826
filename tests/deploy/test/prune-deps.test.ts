import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { repoRoot } from '../src/index.js';

/** Writes package `name` at `dir` with `dependencies` (and an index.js, a .d.ts, a map, a README and a LICENSE). */
function writePackage(dir: string, name: string, dependencies: Record<string, string> = {}, extra: Record<string, unknown> = {}): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, version: '1.0.0', dependencies, ...extra }));
  for (const file of ['index.js', 'index.d.ts', 'index.js.map', 'README.md', 'LICENSE.md']) writeFileSync(path.join(dir, file), '');
}

describe('infra/docker/prune-deps.mjs', () => {
  let dir: string;

  before(() => {
    // A workspace as `npm ci --omit=dev` leaves it: the service, a workspace package it uses, the
    // testkit it only tests with (linked all the same), and hoisted and nested dependencies.
    dir = mkdtempSync(path.join(tmpdir(), 'prune-deps-'));
    const modules = path.join(dir, 'node_modules');
    writePackage(path.join(dir, 'services', 'shop'), '@gateway/shop', { '@gateway/db': '*', express: '^5' });
    writePackage(path.join(dir, 'packages', 'db'), '@gateway/db', { pg: '^8' });
    writePackage(path.join(dir, 'packages', 'testkit'), '@gateway/testkit', { testcontainers: '^11' });
    mkdirSync(path.join(modules, '@gateway'), { recursive: true });
    for (const [name, target] of [['shop', '../../services/shop'], ['db', '../../packages/db'], ['testkit', '../../packages/testkit']]) {
      symlinkSync(target!, path.join(modules, '@gateway', name!));
    }
    writePackage(path.join(modules, 'express'), 'express', { debug: '^4', ms: '^3' });
    writePackage(path.join(modules, 'debug'), 'debug', { ms: '^2' });
    writePackage(path.join(modules, 'ms'), 'ms');
    // express needs ms 3, nested; the hoisted ms 2 is debug's.
    writePackage(path.join(modules, 'express', 'node_modules', 'ms'), 'ms');
    writePackage(path.join(modules, 'pg'), 'pg', {}, { optionalDependencies: { 'pg-native': '*' }, peerDependencies: { 'pg-cloudflare': '*' } });
    writePackage(path.join(modules, 'pg-cloudflare'), 'pg-cloudflare');
    writePackage(path.join(modules, 'testcontainers'), 'testcontainers', { dockerode: '^4' });
    writePackage(path.join(modules, 'dockerode'), 'dockerode');
    // Nested under a package that goes: goes with it.
    writePackage(path.join(modules, 'testcontainers', 'node_modules', 'ssh2'), 'ssh2');
    mkdirSync(path.join(modules, '.bin'));

    const run = spawnSync(process.execPath, [path.join(repoRoot, 'infra', 'docker', 'prune-deps.mjs'), dir, 'services/shop'], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
  });

  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  const at = (...parts: string[]) => existsSync(path.join(dir, ...parts));

  it('When a service is pruned, then what it loads stays: its workspace packages, their dependencies, peers, and nested versions', () => {
    for (const kept of [
      ['services', 'shop', 'index.js'],
      ['packages', 'db', 'index.js'],
      ['node_modules', '@gateway', 'shop'],
      ['node_modules', '@gateway', 'db'],
      ['node_modules', 'express', 'index.js'],
      ['node_modules', 'express', 'node_modules', 'ms', 'index.js'],
      ['node_modules', 'debug', 'index.js'],
      ['node_modules', 'ms', 'index.js'],
      ['node_modules', 'pg', 'index.js'],
      ['node_modules', 'pg-cloudflare', 'index.js'],
    ]) {
      assert.ok(at(...kept), `${kept.join('/')} was removed`);
    }
  });

  it('When a service is pruned, then what only its tests use goes: the testkit workspace, its dependencies and theirs, and .bin', () => {
    for (const gone of [
      ['packages', 'testkit'],
      ['node_modules', '@gateway', 'testkit'],
      ['node_modules', 'testcontainers'],
      ['node_modules', 'dockerode'],
      ['node_modules', '.bin'],
    ]) {
      assert.ok(!at(...gone), `${gone.join('/')} is still there`);
    }
  });

  it('When a service is pruned, then declarations, source maps and Markdown go, and licences stay', () => {
    assert.ok(!at('node_modules', 'express', 'index.d.ts'));
    assert.ok(!at('node_modules', 'express', 'index.js.map'));
    assert.ok(!at('node_modules', 'express', 'README.md'));
    assert.ok(!at('services', 'shop', 'README.md'));
    assert.ok(at('node_modules', 'express', 'LICENSE.md'));
    assert.ok(at('node_modules', 'express', 'package.json'));
  });
});
