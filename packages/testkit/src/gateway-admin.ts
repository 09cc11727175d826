/**
 * The operators' CLI as an operator runs it: the gateway-admin executable, in
 * a process of its own.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from './database.js';

/**
 * Runs the gateway-admin executable with `args` and `env`, as an operator does,
 * without blocking this process (whose event loop may run a system's
 * services): its exit status and what it printed.
 */
export function runGatewayAdmin(args: readonly string[], env: NodeJS.ProcessEnv): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [join(repoRoot, 'packages', 'gateway-admin', 'bin', 'gateway-admin.js'), ...args], { env, encoding: 'utf8' }, (err, stdout, stderr) => {
      resolve({ status: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
    });
  });
}
