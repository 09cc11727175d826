// One gateway process for run.mjs: `node gateway.mjs express|fastify`, configured by the
// environment as services/api-gateway is (run.mjs passes the test system's gateway env).
import { createLogger } from '@gateway/observability';
import { loadGatewayConfig, startGateway } from '../../services/api-gateway/dist/src/service.js';
import { expressApiListener } from './express-api.mjs';

const stack = process.argv[2];
if (stack !== 'express' && stack !== 'fastify') throw new Error('usage: gateway.mjs express|fastify');
const config = loadGatewayConfig();
const log = createLogger({ service: 'api-gateway', level: config.logLevel });
const running = await startGateway(config, log, stack === 'express' ? { listener: expressApiListener } : {});
process.stdout.write(`${JSON.stringify({ ready: stack, port: running.port })}\n`);
process.on('SIGTERM', () => void running.stop().then(() => process.exit(0)));
