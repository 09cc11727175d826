#!/usr/bin/env node
// Part of `npm run build`: deletes compiled tests (dist/test/**/*.test.js and
// their .d.ts and .map) whose source test/**/*.test.ts is gone, moved or
// renamed. tsc -b never removes an output, and mocha runs every .test.js it
// finds, so a test moved into or out of a test/unit folder would otherwise run
// from both places, or a deleted one run forever.
import { existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

function* compiledTests(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* compiledTests(full);
    else if (entry.name.endsWith('.test.js')) yield full;
  }
}

let pruned = 0;
for (const group of ['packages', 'services', 'tests']) {
  if (!existsSync(path.join(root, group))) continue;
  for (const workspace of readdirSync(path.join(root, group), { withFileTypes: true })) {
    if (!workspace.isDirectory()) continue;
    const dir = path.join(root, group, workspace.name);
    const compiled = path.join(dir, 'dist', 'test');
    if (!existsSync(compiled)) continue;
    for (const file of compiledTests(compiled)) {
      const source = path.join(dir, 'test', path.relative(compiled, file)).replace(/\.js$/, '.ts');
      if (existsSync(source)) continue;
      for (const output of [file, `${file}.map`, file.replace(/\.js$/, '.d.ts'), file.replace(/\.js$/, '.d.ts.map')]) rmSync(output, { force: true });
      pruned += 1;
    }
  }
}
if (pruned > 0) console.error(`build: removed ${pruned} compiled test(s) whose source is gone`);
