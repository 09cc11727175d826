/** Wiring of the sandbox acquirer: in-memory orders, saved cards and Flouci payments, the HTTP API and pages, nothing else. */
import { randomBytes } from 'node:crypto';
import type { Logger } from '@gateway/observability';
import { listen, type RunningService } from '@gateway/runtime';
import type { SandboxConfig } from './config.js';
import { Delays } from './delays.js';
import { AcsTokens } from './domain/acs-tokens.js';
import { BindingStore } from './domain/binding.store.js';
import type { Wallet } from './domain/flouci/wallet.js';
import { WalletPaymentStore } from './domain/flouci/wallet-payment.store.js';
import { OrderStore } from './domain/order.store.js';
import type { Sandbox } from './domain/sandbox.js';
import { createSandboxHandler } from './http/app.js';
import { loadSandboxConfig, sandboxSettings } from './config.js';
import { WebhookPoster } from './webhooks.js';
import type { ServiceDefinition } from '@gateway/runtime';

export { loadSandboxConfig, type SandboxConfig } from './config.js';

export interface SandboxOptions {
  /** The clock that dates orders and Flouci payments and judges card and session expiry; the system clock by default. */
  readonly now?: () => Date;
}

/** Starts the sandbox acquirer on config.port (0 picks a free port). */
export async function startSandbox(config: SandboxConfig, log: Logger, options: SandboxOptions = {}): Promise<RunningService & { port: number }> {
  const delays = new Delays();
  const now = options.now ?? (() => new Date());
  const sandbox: Sandbox = {
    store: new OrderStore(config.orderRetention),
    tokens: new AcsTokens(config.secret),
    // Each binding comes from a paid order, so the orders' bound on memory serves them too.
    bindings: new BindingStore(config.orderRetention),
    cardKey: randomBytes(32),
    publicUrl: config.publicUrl,
    slowDelayMs: config.slowDelayMs,
    finish3dsVer2: !config.withoutFinish3dsVer2,
    now,
    wait: (ms) => delays.wait(ms),
  };
  const webhooks = new WebhookPoster(log);
  const wallet: Wallet = {
    // The orders' bound on memory serves the payments of the other acquirer it plays.
    payments: new WalletPaymentStore(config.orderRetention),
    publicUrl: config.publicUrl,
    now,
    notify: (webhook, notice) => webhooks.post(webhook, notice, { call: 'flouci-webhook', paymentId: notice.payment_id, paymentStatus: notice.status }),
  };
  const http = await listen(createSandboxHandler({ sandbox, terminals: config.terminals, log, flouci: { wallet, apps: config.flouciApps } }), config);
  return {
    port: http.port,
    async stop() {
      // Answers held back by the slow card go out now rather than keep the server open.
      delays.release();
      // Webhooks are fire and forget: one still under way is dropped rather than waited for.
      webhooks.stop();
      // listen()'s close lets every answer under way go out and ends kept-alive connections as they idle.
      await http.close();
    },
  };
}

/** The epg-sandbox service, as its process entry and the in-process launcher start it. */
export const service: ServiceDefinition<SandboxConfig> = { name: 'epg-sandbox', settings: sandboxSettings, loadConfig: loadSandboxConfig, start: startSandbox };
