#!/usr/bin/env node
// Run by infra/docker/service.Dockerfile after `npm ci --omit=dev` in the folder an image
// is assembled in: keeps only what the entry workspaces can load at run time.
//
//   node prune-deps.mjs DIR WORKSPACE...      e.g. /out services/session
//
// `npm ci --workspace X` still installs the production dependencies of every workspace
// linked into the tree, and a devDependency workspace (the testkit) brings testcontainers,
// dockerode, ssh2, gRPC and the rest along. So, from each entry workspace's package.json,
// this walks `dependencies`, `optionalDependencies` and `peerDependencies` the way Node
// resolves them (nested node_modules first, then each parent folder's), and deletes every
// package and workspace folder no walk reached. Then type declarations, source maps and
// Markdown are deleted from what is left (never a LICENSE). Built-in modules only.
import fs from 'node:fs';
import path from 'node:path';

const [dir, ...entries] = process.argv.slice(2);
if (!dir || entries.length === 0) {
  console.error('usage: prune-deps.mjs DIR WORKSPACE...');
  process.exit(2);
}
const top = path.resolve(dir);

/** The folder of package `name` as Node finds it from a package in `from`; undefined when absent. */
function resolvePackage(name, from) {
  for (let current = from; current.startsWith(top); current = path.dirname(current)) {
    const candidate = path.join(current, 'node_modules', name);
    if (fs.existsSync(path.join(candidate, 'package.json'))) return fs.realpathSync(candidate);
    if (current === top) break;
  }
  return undefined;
}

const kept = new Set();
const pending = entries.map((entry) => fs.realpathSync(path.join(top, entry)));
while (pending.length > 0) {
  const pkgDir = pending.pop();
  if (kept.has(pkgDir)) continue;
  kept.add(pkgDir);
  const manifest = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
  const names = new Set([...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.optionalDependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {})]);
  for (const name of names) {
    const found = resolvePackage(name, pkgDir);
    // An optional or peer dependency may be absent; a missing required one fails at run time, as it would anyway.
    if (found) pending.push(found);
  }
}

let removed = 0;
/** Deletes the packages of node_modules folder `modules` that no walk reached; recurses into the kept ones. */
function sweep(modules) {
  if (!fs.existsSync(modules)) return;
  for (const entry of fs.readdirSync(modules, { withFileTypes: true })) {
    const full = path.join(modules, entry.name);
    if (entry.name === '.bin' || entry.name === '.package-lock.json') {
      fs.rmSync(full, { recursive: true, force: true });
      continue;
    }
    if (entry.name.startsWith('@')) {
      sweep(full);
      if (fs.readdirSync(full).length === 0) fs.rmSync(full, { recursive: true });
      continue;
    }
    const real = fs.realpathSync(full);
    if (!kept.has(real)) {
      // A workspace is reached through a link: the link goes, and its folder below.
      fs.rmSync(full, { recursive: true, force: true });
      removed += 1;
    } else if (!entry.isSymbolicLink()) sweep(path.join(full, 'node_modules'));
  }
}
sweep(path.join(top, 'node_modules'));
for (const group of ['packages', 'services']) {
  for (const name of fs.existsSync(path.join(top, group)) ? fs.readdirSync(path.join(top, group)) : []) {
    const folder = path.join(top, group, name);
    if (!kept.has(fs.realpathSync(folder))) fs.rmSync(folder, { recursive: true, force: true });
    else sweep(path.join(folder, 'node_modules'));
  }
}

/** Files nothing loads at run time. */
const USELESS = /(\.d\.[cm]?ts|\.d\.[cm]?ts\.map|\.js\.map|\.[cm]js\.map|\.tsbuildinfo|\.md|\.markdown)$/i;
let files = 0;
function strip(folder) {
  for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
    const full = path.join(folder, entry.name);
    if (entry.isSymbolicLink()) continue;
    if (entry.isDirectory()) strip(full);
    else if (USELESS.test(entry.name) && !/^licen[cs]e/i.test(entry.name)) {
      fs.rmSync(full);
      files += 1;
    }
  }
}
strip(top);
console.log(`prune-deps: kept ${kept.size} packages for ${entries.join(', ')}; removed ${removed} packages and ${files} declaration, map and Markdown files`);
