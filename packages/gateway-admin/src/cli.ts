/**
 * The gateway-admin executable: JSON on stdout and exit 0 on success; a JSON
 * error on stderr and exit 1 when a service refuses, 2 on a usage error; a
 * change made whose output could not all be read prints what it has on stdout,
 * the error on stderr, and exits 1.
 * The broker is reached, and the operator's key read, only when a command
 * is sent: `operator keygen` needs neither.
 *
 * Run in a checkout where `make up` runs, AMQP_URL, BROKER_PREFIX and
 * OPERATOR_KEY_FILE default to that run's: its broker user for gateway-admin
 * and the machine's operator key (.local/gateway-admin.json, or that file in
 * GATEWAY_LOCAL_DIR), a file taken only when it is the user's and nobody else
 * may write it: otherwise it exits 2, saying why.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { common, loadConfig, str } from '@gateway/config';
import { Broker, brokerUser, OperatorSigner, RpcClient, type JWK } from '@gateway/messaging';
import { createLogger } from '@gateway/observability';
import { AppError } from '@gateway/problem';
import { IncompleteOutput, runAdmin, USAGE, UsageError, type Send } from './admin.js';
import { localRunSettings, UnsafeConfigFile } from './local-run-file.js';

/** The settings a local run gives gateway-admin, which the environment's own replace. */
const LOCAL_RUN_SETTINGS = ['AMQP_URL', 'BROKER_PREFIX', 'OPERATOR_KEY_FILE'] as const;

/** Where `make up` keeps its files: GATEWAY_LOCAL_DIR, or .local/ of the checkout this file is in (dist/src/cli.js of packages/gateway-admin). */
const localDir = process.env['GATEWAY_LOCAL_DIR'] || path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..', '.local');
const localRunFile = path.join(localDir, 'gateway-admin.json');

/** The settings of the local run, if one wrote them; none elsewhere (an image, another machine). Exits 2 on a file that is not safe to take. */
function localRunOrExit(): Partial<Record<(typeof LOCAL_RUN_SETTINGS)[number], string>> {
  try {
    return localRunSettings(localRunFile, LOCAL_RUN_SETTINGS);
  } catch (err) {
    if (!(err instanceof UnsafeConfigFile)) throw err;
    process.stderr.write(`${JSON.stringify({ error: 'config-file', detail: err.message })}\n`);
    process.exit(2);
  }
}

const localRun = localRunOrExit();
const given = (name: string) => (process.env[name] ?? '') !== '';
const settings = { ...process.env, ...Object.fromEntries(Object.entries(localRun).filter(([name]) => !given(name))) };

const config = loadConfig({
  amqpUrl: common.amqpUrl,
  brokerPrefix: common.brokerPrefix,
  rpcTimeoutMs: common.rpcTimeoutMs,
  /** The operator's private Ed25519 JWK, or the file that holds it (D17). */
  operatorKey: str('OPERATOR_KEY', '', { secret: true }),
  operatorKeyFile: str('OPERATOR_KEY_FILE', ''),
  /** Who the operator is, as the audit log shows it; the key's kid when empty. */
  operatorName: str('OPERATOR_NAME', ''),
}, settings);
const log = createLogger({ service: 'gateway-admin', level: 'error', destination: process.stderr });
const broker = new Broker({ url: config.amqpUrl, prefix: config.brokerPrefix, log, reconnectMaxMs: 1_000 });

/** No operator key to sign with: nothing can be sent. */
class OperatorKeyError extends Error {}

/**
 * What to tell an operator whose command the services refused for the broker
 * user it came from (D17: they take operator commands from the operators'
 * user only): which user that was, where it came from, and what to set.
 */
function brokerUserAdvice(): string {
  const expected = brokerUser(config.brokerPrefix, 'gateway-admin');
  const from = given('AMQP_URL') ? 'AMQP_URL' : localRun.AMQP_URL !== undefined ? localRunFile : `the default AMQP_URL (no local run's settings in ${localRunFile})`;
  return (
    `the services refused the command for its sender: gateway-admin connected to the broker as ${broker.user} (from ${from}), ` +
    `and they take operator commands from ${expected} only. ` +
    (localRun.AMQP_URL !== undefined && given('AMQP_URL')
      ? `Unset AMQP_URL to use this checkout's local run (${localRunFile}), or set it to a URL with user ${expected} and its password.`
      : `Set AMQP_URL to a URL with user ${expected} and its password (make up keeps it in .local/broker-users.json), or start \`make up\` in this checkout and run gateway-admin there.`)
  );
}

async function operatorSigner(): Promise<OperatorSigner> {
  const raw = config.operatorKey || (config.operatorKeyFile ? await readFile(config.operatorKeyFile, 'utf8') : '');
  if (!raw) {
    throw new OperatorKeyError('set OPERATOR_KEY (a private JWK) or OPERATOR_KEY_FILE (a file holding one): services refuse unsigned operator commands; `gateway-admin operator keygen` makes a key');
  }
  let jwk: unknown;
  try {
    jwk = JSON.parse(raw);
  } catch {
    throw new OperatorKeyError(`${config.operatorKey ? 'OPERATOR_KEY' : 'OPERATOR_KEY_FILE'} does not hold a JWK (JSON)`);
  }
  try {
    return await OperatorSigner.fromJwk(jwk as JWK, config.operatorName);
  } catch (err) {
    throw new OperatorKeyError((err as Error).message);
  }
}

async function connect(): Promise<RpcClient> {
  const rpc = new RpcClient(broker, config.rpcTimeoutMs, await operatorSigner());
  const connected = Promise.race([broker.start().then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), config.rpcTimeoutMs))]);
  if (!(await connected)) throw new Error(`cannot reach the broker at ${new URL(config.amqpUrl).host}`);
  return broker.register(rpc);
}

let client: Promise<RpcClient> | undefined;
const send: Send = async (type, data, options) =>
  (await (await (client ??= connect())).call(type, data, { timeoutMs: Math.max(config.rpcTimeoutMs, options?.timeoutMs ?? 0) })).body;

let exitCode = 0;
try {
  const argv = process.argv.slice(2);
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === 'help') throw new UsageError('no command');
  process.stdout.write(`${JSON.stringify(await runAdmin(argv, send))}\n`);
} catch (err) {
  if (err instanceof UsageError) {
    process.stderr.write(`${JSON.stringify({ error: 'usage', detail: err.message })}\n${USAGE}\n`);
    exitCode = 2;
  } else if (err instanceof IncompleteOutput) {
    // The change stands: what it made (a key shown only once among it) is printed, and the exit says not all of it.
    process.stdout.write(`${JSON.stringify(err.output)}\n`);
    process.stderr.write(`${JSON.stringify({ error: 'incomplete', detail: err.message })}\n`);
    exitCode = 1;
  } else if (err instanceof OperatorKeyError) {
    process.stderr.write(`${JSON.stringify({ error: 'operator-key', detail: err.message })}\n`);
    exitCode = 1;
  } else if (err instanceof AppError && err.code === 'operator-unauthorized' && err.extensions['reason'] === 'broker-user') {
    process.stderr.write(`${JSON.stringify({ error: 'broker-user', detail: brokerUserAdvice() })}\n`);
    exitCode = 1;
  } else if (err instanceof AppError) {
    process.stderr.write(`${JSON.stringify({ error: err.code, detail: err.detail, ...(err.errors.length > 0 && { errors: err.errors }) })}\n`);
    exitCode = 1;
  } else {
    process.stderr.write(`${JSON.stringify({ error: 'failed', detail: (err as Error).message })}\n`);
    exitCode = 1;
  }
} finally {
  if (client) await broker.stop();
}
process.exit(exitCode);
