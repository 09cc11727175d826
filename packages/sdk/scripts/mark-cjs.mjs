#!/usr/bin/env node
// The package is ESM ("type": "module"), so Node would read dist/cjs's .js files
// as ESM too; this marker makes them CommonJS for `require('@gateway/sdk')`.
// tsc emits no package.json, hence this step after every build.
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('../dist/cjs/', import.meta.url));
mkdirSync(dir, { recursive: true });
writeFileSync(`${dir}package.json`, '{ "type": "commonjs" }\n');
