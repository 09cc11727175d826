/** Wiring of the API gateway: database, Redis, broker, HTTP API, operator commands, the audit log. */
import { schemaOf } from '@gateway/contracts';
import { BroadcastListener, CommandServer, EventConsumer, OperatorGuard, OutboxRelay, RpcClient } from '@gateway/messaging';
import { ExportSlots, SLOT_STORE_OPTIONS } from '@gateway/exports';
import { describeError, type Logger } from '@gateway/observability';
import { createRedis, every, listen, openServiceBase, serviceMigrations, type RequestListener, type RunningService } from '@gateway/runtime';
import { SecretBox, secretsMigrations } from '@gateway/secrets';
import { Authenticator } from './auth/authenticator.js';
import { errorsHost, type GatewayConfig } from './config.js';
import { AuditLogRepository } from './db/audit-log.repository.js';
import { MerchantRepository } from './db/merchant.repository.js';
import type { AdminDeps } from './domain/deps.js';
import { TestEventStreams } from './events/test-event-streams.js';
import { createApiListener, type ApiDependencies } from './http/app.js';
import { upstreamProxy } from './http/upstream-proxy.js';
import { IdempotencyRepository } from './idempotency/idempotency.repository.js';
import { IdempotentCalls } from './idempotency/idempotent-call.js';
import { budgetDefaults } from './limits/budgets.js';
import { TokenBuckets } from './limits/token-buckets.js';
import { gatewayCommands } from './messaging/api-gateway.commands.js';
import { gatewayEvents } from './messaging/api-gateway.events.js';
import { loadGatewayConfig, gatewaySettings } from './config.js';
import type { ServiceDefinition } from '@gateway/runtime';

export { loadGatewayConfig, type GatewayConfig } from './config.js';

export const SCHEMA = schemaOf('api-gateway');

export const migrations = [...serviceMigrations('api-gateway', import.meta.url), secretsMigrations];

/** How long past the command deadline a request still holding its Idempotency-Key may be running (storing its answer). */
const IDEMPOTENCY_CLAIM_MARGIN_MS = 10_000;

const CHECKOUT_UNAVAILABLE = { contentType: 'text/plain; charset=utf-8', body: 'The payment page is unavailable; please try again.' };
/** A page a browser shows as it is: no script, nothing loaded, nothing of the failure. */
const DASHBOARD_UNAVAILABLE = {
  contentType: 'text/html; charset=utf-8',
  body: '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Unavailable</title></head><body><h1>502 Bad Gateway</h1><p>The dashboard is unavailable; please try again in a moment.</p></body></html>',
};

export interface GatewayOptions {
  /** Builds the HTTP listener from the API's dependencies: fastify (createApiListener) unless given; bench/http-stack measures express through it. */
  listener?: (deps: ApiDependencies) => RequestListener | Promise<RequestListener>;
}

/** Starts the gateway; `stop` stops taking requests, lets in-flight ones finish, then closes everything. */
export async function startGateway(config: GatewayConfig, log: Logger, options: GatewayOptions = {}): Promise<RunningService> {
  const { pool, broker, readiness, close } = openServiceBase('api-gateway', SCHEMA, config, log);
  // No clear column to encrypt here: test keys made before D17 were only ever hashed.
  const secrets = await SecretBox.open(pool, { current: config.secretsKek, previous: config.secretsKekPrevious });
  const merchants = new MerchantRepository(pool, secrets);
  const auditLog = new AuditLogRepository(pool);
  const auth = new Authenticator(merchants, config.authCacheTtlMs);
  const buckets = new TokenBuckets(config, log, { fallbackReplicas: config.rateLimitFallbackReplicas });
  // Its own connection, as the limiter's: an unanswering Redis is given up on quickly, and the replica counts alone.
  const exportSlotsRedis = createRedis(config, SLOT_STORE_OPTIONS);
  exportSlotsRedis.on('error', () => undefined);
  const exportSlots = ExportSlots.fromConfig(exportSlotsRedis, config, log);
  const rpc = new RpcClient(broker, config.rpcTimeoutMs);
  const relay = new OutboxRelay(broker, { pool, log });
  const budgets = budgetDefaults(config);
  const idempotency = new IdempotentCalls(
    new IdempotencyRepository(pool),
    {
      ttlSeconds: config.idempotencyTtlSeconds,
      abandonedAfterMs: Math.max(config.rpcTimeoutMs, config.acquirerCommandTimeoutMs) + IDEMPOTENCY_CLAIM_MARGIN_MS,
      errorsHost: errorsHost(config),
      log,
    },
    // Answers that show a webhook endpoint's secret are kept encrypted (D17).
    secrets,
  );

  const admin: AdminDeps = { merchants, auth, budgets, rotationGracesSeconds: config.keyRotationGracesSeconds, allowPrivateWebhooks: config.allowPrivateWebhooks, afterCommit: () => relay.wake() };
  const handlers = gatewayCommands({
    admin,
    auditLog,
    secrets,
  });

  await buckets.connect();
  await exportSlotsRedis.connect().catch((err: unknown) => log.warn({ err: describeError(err) }, 'redis not reachable yet (export slots)'));
  await broker.start();
  await broker.register(rpc);
  await broker.register(relay);
  const operators = new OperatorGuard({ service: 'api-gateway', publicKeys: config.operatorPublicKeys, pool, log, afterCommit: () => relay.wake() });
  await broker.register(new CommandServer(broker, { service: 'api-gateway', handlers, log, operators }));
  await broker.register(new EventConsumer(broker, { service: 'api-gateway', log, changes: gatewayEvents(auditLog) }));
  await broker.register(
    new BroadcastListener(broker, {
      patterns: ['merchant.updated', 'api_key.revoked'],
      handler: (envelope) => {
        const data = envelope.data as { merchant_id?: string; key_id?: string };
        if (envelope.type === 'api_key.revoked' && data.key_id) auth.forgetKey(data.key_id);
        else if (data.merchant_id) auth.forgetMerchant(data.merchant_id);
      },
      // Changes broadcast while this replica was disconnected were missed.
      onResubscribe: () => auth.forgetAll(),
    }),
  );

  const events = await broker.register(new TestEventStreams(broker, config.eventStreamsPerMerchant));
  const trustedHops = config.trustProxyHops;

  const app = await (options.listener ?? createApiListener)({
    auth,
    buckets,
    rpc,
    idempotency,
    log,
    budgets,
    authFailuresPerMinute: config.authFailuresPerMinute,
    acquirerCommandTimeoutMs: config.acquirerCommandTimeoutMs,
    events,
    eventStreamHeartbeatSeconds: config.eventStreamHeartbeatSeconds,
    eventStreamAuthCheckSeconds: config.eventStreamAuthCheckSeconds,
    exportPageSize: config.exportPageSize,
    exportIdleTimeoutMs: config.exportIdleTimeoutMs,
    exportMaxSeconds: config.exportMaxSeconds,
    exportSlots,
    rateLimitKeyPrefix: config.rateLimitKeyPrefix,
    errorsHost: errorsHost(config),
    publicBaseUrl: config.publicBaseUrl,
    trustedProxyHops: trustedHops,
    readiness: { ...readiness, redis: () => buckets.ping() },
    ...(config.checkoutUpstreamUrl && {
      checkout: upstreamProxy(config.checkoutUpstreamUrl, { name: 'checkout', unavailable: CHECKOUT_UNAVAILABLE, trustedProxyHops: trustedHops }, log),
    }),
    ...(config.dashboardUpstreamUrl && {
      dashboard: upstreamProxy(config.dashboardUpstreamUrl, { name: 'dashboard', unavailable: DASHBOARD_UNAVAILABLE, trustedProxyHops: trustedHops }, log),
    }),
  });
  const http = await listen(app, config);
  const purge = every(config.sweepIntervalSeconds, 'idempotency-purge', async () => void (await idempotency.purgeExpired()), log);
  return {
    port: http.port,
    async stop() {
      // Event streams never end by themselves: ended here, or the server's close would wait for them.
      const closing = http.close();
      events.closeAll();
      await closing;
      await purge.stop();
      await close();
      await buckets.close();
      await exportSlotsRedis.quit().catch(() => exportSlotsRedis.disconnect());
    },
  };
}

/** The api-gateway service, as its process entry and the in-process launcher start it. */
export const service: ServiceDefinition<GatewayConfig> = { name: 'api-gateway', settings: gatewaySettings, loadConfig: loadGatewayConfig, start: startGateway };
