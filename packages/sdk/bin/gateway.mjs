#!/usr/bin/env node
// The `gateway` command of @gateway/sdk (listen, trigger); see src/cli/main.ts.
import { main } from '../dist/src/cli/main.js';

process.exitCode = await main(process.argv.slice(2));
