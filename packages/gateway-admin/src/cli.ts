/**
 * The gateway-admin executable: JSON on stdout and exit 0 on success; a JSON
 * error on stderr and exit 1 when a service refuses, 2 on a usage error.
 */
import { common, loadConfig } from '@gateway/config';
import { Broker, RpcClient } from '@gateway/messaging';
import { createLogger } from '@gateway/observability';
import { AppError } from '@gateway/problem';
import { runAdmin, USAGE, UsageError, type Send } from './admin.js';

const config = loadConfig({ amqpUrl: common.amqpUrl, brokerPrefix: common.brokerPrefix, rpcTimeoutMs: common.rpcTimeoutMs });
const log = createLogger({ service: 'gateway-admin', level: 'error', destination: process.stderr });
const broker = new Broker({ url: config.amqpUrl, prefix: config.brokerPrefix, log, reconnectMaxMs: 1_000 });
const rpc = new RpcClient(broker, config.rpcTimeoutMs);
const send: Send = async (type, data) => (await rpc.call(type, data)).body;

let exitCode = 0;
try {
  const argv = process.argv.slice(2);
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === 'help') throw new UsageError('no command');
  const connected = Promise.race([broker.start().then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), config.rpcTimeoutMs))]);
  if (!(await connected)) throw new Error(`cannot reach the broker at ${new URL(config.amqpUrl).host}`);
  await broker.register(rpc);
  process.stdout.write(`${JSON.stringify(await runAdmin(argv, send))}\n`);
} catch (err) {
  if (err instanceof UsageError) {
    process.stderr.write(`${JSON.stringify({ error: 'usage', detail: err.message })}\n${USAGE}\n`);
    exitCode = 2;
  } else if (err instanceof AppError) {
    process.stderr.write(`${JSON.stringify({ error: err.code, detail: err.detail, ...(err.errors.length > 0 && { errors: err.errors }) })}\n`);
    exitCode = 1;
  } else {
    process.stderr.write(`${JSON.stringify({ error: 'failed', detail: (err as Error).message })}\n`);
    exitCode = 1;
  }
} finally {
  await broker.stop();
}
process.exit(exitCode);
