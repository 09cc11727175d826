/** Wiring of the checkout service: broker (commands to session and adapter), hosted pages, health. */
import express from 'express';
import { CardSealer } from '@gateway/card-sealing';
import type { Logger } from '@gateway/observability';
import { Broker, RpcClient } from '@gateway/messaging';
import { addHealthRoutes, listen, type RunningService } from '@gateway/runtime';
import type { CheckoutConfig } from './config.js';
import type { FlowDeps } from './domain/checkout-flow.js';
import { LinkVerifier } from './domain/link-verifier.js';
import { addCheckoutRoutes } from './http/checkout.routes.js';
import { loadCheckoutConfig, checkoutSettings } from './config.js';
import type { ServiceDefinition } from '@gateway/runtime';

export { loadCheckoutConfig, type CheckoutConfig } from './config.js';

/** Starts the checkout service; `stop` drains it. */
export async function startCheckout(config: CheckoutConfig, log: Logger): Promise<RunningService> {
  const broker = new Broker({ url: config.amqpUrl, prefix: config.brokerPrefix, service: 'checkout', sharedUser: config.brokerSharedUser, log });
  const rpc = new RpcClient(broker, config.rpcTimeoutMs);
  const deps: FlowDeps = {
    links: LinkVerifier.fromJwk(config.linkVerifyKey),
    cards: CardSealer.fromJwk(config.cardEncryptionKey),
    call: async (type, data, timeoutMs) => (await rpc.call(type, data, timeoutMs === undefined ? {} : { timeoutMs })).body,
    publicBaseUrl: config.publicBaseUrl,
    paymentTimeoutMs: config.paymentTimeoutMs,
    paymentReturnGraceSeconds: config.paymentReturnGraceSeconds,
    clock: () => new Date(),
    log,
  };
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  addHealthRoutes(app, { broker: async () => broker.connected }, log);
  addCheckoutRoutes(app, deps, log);
  const http = await listen(app, config.port);
  await broker.start();
  await broker.register(rpc);
  return {
    port: http.port,
    async stop() {
      await http.close();
      await broker.stop();
    },
  };
}

/** The checkout service, as its process entry and the in-process launcher start it. */
export const service: ServiceDefinition<CheckoutConfig> = { name: 'checkout', settings: checkoutSettings, loadConfig: loadCheckoutConfig, start: startCheckout };
