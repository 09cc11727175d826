/** Wiring of the checkout service: database (payment links, branding), broker (commands to session and adapter, its own command queue, session.succeeded), hosted pages, health. */
import { randomUUID } from 'node:crypto';
import express from 'express';
import { schemaOf } from '@gateway/contracts';
import { CardSealer } from '@gateway/card-sealing';
import type { Logger } from '@gateway/observability';
import { unlessNotFound } from '@gateway/problem';
import { CommandServer, EventConsumer, RpcClient } from '@gateway/messaging';
import { addHealthRoutes, every, listen, openServiceBase, serviceMigrations, type RunningService } from '@gateway/runtime';
import { BrandingRepository } from './db/branding.repository.js';
import type { BrandingDeps } from './domain/branding.js';
import { addBrandRoutes } from './http/brand.routes.js';
import type { CheckoutConfig } from './config.js';
import { PaymentLinkRepository } from './db/payment-link.repository.js';
import type { FlowDeps } from './domain/payment-steps.js';
import { CheckoutLinkVerifier } from './domain/checkout-link-verifier.js';
import type { PayByPaymentLinkDeps } from './domain/pay-by-payment-link.js';
import { cancelSessionsOfClosedLinks } from './domain/payment-links.js';
import { PaymentLinkSlots } from './domain/payment-link-slots.js';
import { addCheckoutRoutes } from './http/checkout.routes.js';
import { addPayRoutes } from './http/pay.routes.js';
import { addWalletNoticeRoutes } from './http/wallet-notice.routes.js';
import { checkoutCommands } from './messaging/checkout.commands.js';
import { checkoutEvents } from './messaging/checkout.events.js';
import { loadCheckoutConfig, checkoutSettings } from './config.js';
import type { ServiceDefinition } from '@gateway/runtime';


export const SCHEMA = schemaOf('checkout');

export const migrations = serviceMigrations('checkout', import.meta.url);

/** Starts the checkout service; `stop` drains it. */
async function startCheckout(config: CheckoutConfig, log: Logger): Promise<RunningService> {
  const { pool, broker, readiness, close } = openServiceBase('checkout', SCHEMA, config, log);
  const rpc = new RpcClient(broker, config.rpcTimeoutMs);
  const clock = () => new Date();
  const paymentLinks = new PaymentLinkRepository(pool);
  const slots = new PaymentLinkSlots({
    paymentLinks,
    viewSession: async (ref) => unlessNotFound(rpc.call('checkout.view', ref).then((reply) => reply.body)),
    paymentTimeoutMs: config.paymentTimeoutMs,
    checkMarginMs: config.paymentLinkSlotCheckMarginMs,
    clock,
    log,
  });
  const deps: FlowDeps = {
    checkoutLinks: CheckoutLinkVerifier.fromJwk(config.checkoutLinkVerifyKey),
    slots,
    cards: CardSealer.fromJwk(config.cardEncryptionKey),
    call: async (type, data, timeoutMs) => (await rpc.call(type, data, timeoutMs === undefined ? {} : { timeoutMs })).body,
    publicBaseUrl: config.publicBaseUrl,
    sandboxPublicUrl: config.sandboxPublicUrl,
    threeDSMethodWaitMs: config.threeDSMethodWaitMs,
    paymentTimeoutMs: config.paymentTimeoutMs,
    paymentReturnGraceSeconds: config.paymentReturnGraceSeconds,
    clock,
    log,
  };
  const paymentLinkDeps: PayByPaymentLinkDeps = {
    paymentLinks,
    slots,
    publicBaseUrl: config.publicBaseUrl,
    clock,
    buyerLimitPerMinute: config.paymentLinkBuyerLimitPerMinute,
    linkLimitPerMinute: config.paymentLinkSessionsPerMinute,
    cancelOpenSessions: async (context, linkId) => {
      await rpc.call('session.cancel_for_payment_link', { context, payment_link: linkId }, { correlationId: context.request_id });
    },
    checkCurrency: async (context, currency) => {
      await rpc.call('rate.check', { context, currency }, { correlationId: context.request_id });
    },
    createSession: async (request, correlationId) => (await rpc.call('session.create', request, { correlationId })).body,
  };
  const brands = new BrandingRepository(pool, config.brandingCacheMs);
  const brandingDeps: BrandingDeps = { brands, publicBaseUrl: config.publicBaseUrl, clock, log };
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  addHealthRoutes(app, readiness, log);
  addBrandRoutes(app, brands, log);
  // Before the hosted page's routes, whose pages answer every other /checkout/ path.
  addWalletNoticeRoutes(
    app,
    { verify: async (request, timeoutMs) => (await rpc.call('payment.verify', request, { timeoutMs })).body, verifyTimeoutMs: config.walletNoticeVerifyTimeoutMs, log },
    log,
    { trustProxyHops: config.trustProxyHops, noticesPerAddressPerMinute: config.walletNoticesPerAddressPerMinute, clock },
  );
  addCheckoutRoutes(app, deps, log, brands, { trustProxyHops: config.trustProxyHops });
  addPayRoutes(app, paymentLinkDeps, log, { trustProxyHops: config.trustProxyHops, qrPerAddressPerMinute: config.qrPerAddressPerMinute, qrCacheEntries: config.qrCacheEntries }, brands);
  const http = await listen(app, config);
  await broker.start();
  await broker.register(rpc);
  await broker.register(new EventConsumer(broker, { service: 'checkout', log, prefetch: config.eventPrefetch, changes: checkoutEvents(paymentLinks) }));
  await broker.register(
    new CommandServer(broker, {
      service: 'checkout',
      log,
      prefetch: { fast: config.commandPrefetch },
      handlers: checkoutCommands({ paymentLinks: paymentLinkDeps, branding: brandingDeps }),
    }),
  );
  // Closed links' open sessions canceled (D29), once the broker carries the commands.
  const closing = every(config.paymentLinkSweepSeconds, 'payment-link-closing', async () => void (await cancelSessionsOfClosedLinks(paymentLinkDeps, `sweep_${randomUUID()}`)), log);
  return {
    port: http.port,
    async stop() {
      await closing.stop();
      await http.close();
      await close();
    },
  };
}

/** The checkout service, as its process entry and the in-process launcher start it. */
export const service: ServiceDefinition<CheckoutConfig> = { name: 'checkout', settings: checkoutSettings, loadConfig: loadCheckoutConfig, start: startCheckout };
