/**
 * The gateway-admin executable: JSON on stdout and exit 0 on success; a JSON
 * error on stderr and exit 1 when a service refuses, 2 on a usage error; a
 * change made whose output could not all be read prints what it has on stdout,
 * the error on stderr, and exits 1.
 * The broker is reached, and the operator's key read, only when a command
 * is sent: `operator keygen` needs neither.
 */
import { readFile } from 'node:fs/promises';
import { common, loadConfig, str } from '@gateway/config';
import { Broker, OperatorSigner, RpcClient, type JWK } from '@gateway/messaging';
import { createLogger } from '@gateway/observability';
import { AppError } from '@gateway/problem';
import { IncompleteOutput, runAdmin, USAGE, UsageError, type Send } from './admin.js';

const config = loadConfig({
  amqpUrl: common.amqpUrl,
  brokerPrefix: common.brokerPrefix,
  rpcTimeoutMs: common.rpcTimeoutMs,
  /** The operator's private Ed25519 JWK, or the file that holds it (D17). */
  operatorKey: str('OPERATOR_KEY', '', { secret: true }),
  operatorKeyFile: str('OPERATOR_KEY_FILE', ''),
  /** Who the operator is, as the audit log shows it; the key's kid when empty. */
  operatorName: str('OPERATOR_NAME', ''),
});
const log = createLogger({ service: 'gateway-admin', level: 'error', destination: process.stderr });
const broker = new Broker({ url: config.amqpUrl, prefix: config.brokerPrefix, log, reconnectMaxMs: 1_000 });

/** No operator key to sign with: nothing can be sent. */
class OperatorKeyError extends Error {}

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
const send: Send = async (type, data) => (await (await (client ??= connect())).call(type, data)).body;

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
