/** Wiring of the sandbox acquirer: in-memory orders and saved cards, the HTTP API, nothing else. */
import { randomBytes } from 'node:crypto';
import type { Logger } from '@gateway/observability';
import { listen, type RunningService } from '@gateway/runtime';
import type { SandboxConfig } from './config.js';
import { Delays } from './delays.js';
import { AcsTokens } from './domain/acs-tokens.js';
import { BindingStore } from './domain/binding.store.js';
import { OrderStore } from './domain/order.store.js';
import type { Sandbox } from './domain/sandbox.js';
import { createSandboxHandler } from './http/app.js';
import { loadSandboxConfig, sandboxSettings } from './config.js';
import type { ServiceDefinition } from '@gateway/runtime';

export { loadSandboxConfig, type SandboxConfig } from './config.js';

export interface SandboxOptions {
  /** The clock that dates orders and judges card expiry; the system clock by default. */
  readonly now?: () => Date;
}

/** Starts the sandbox acquirer on config.port (0 picks a free port). */
export async function startSandbox(config: SandboxConfig, log: Logger, options: SandboxOptions = {}): Promise<RunningService & { port: number }> {
  const delays = new Delays();
  const sandbox: Sandbox = {
    store: new OrderStore(config.orderRetention),
    tokens: new AcsTokens(config.secret),
    // Each binding comes from a paid order, so the orders' bound on memory serves them too.
    bindings: new BindingStore(config.orderRetention),
    cardKey: randomBytes(32),
    publicUrl: config.publicUrl,
    slowDelayMs: config.slowDelayMs,
    finish3dsVer2: !config.withoutFinish3dsVer2,
    now: options.now ?? (() => new Date()),
    wait: (ms) => delays.wait(ms),
  };
  const http = await listen(createSandboxHandler({ sandbox, terminals: config.terminals, log }), config);
  return {
    port: http.port,
    async stop() {
      // Answers held back by the slow card go out now rather than keep the server open.
      delays.release();
      // listen()'s close lets every answer under way go out and ends kept-alive connections as they idle.
      await http.close();
    },
  };
}

/** The epg-sandbox service, as its process entry and the in-process launcher start it. */
export const service: ServiceDefinition<SandboxConfig> = { name: 'epg-sandbox', settings: sandboxSettings, loadConfig: loadSandboxConfig, start: startSandbox };
