/**
 * Fire-and-forget webhook posts: each goes out at once, never awaited by its
 * caller, gives up after a short timeout, and is only logged; a stopping
 * service aborts those still under way, so none holds up shutdown. Logs name
 * the payment and the webhook's origin, never its path or query, where a
 * merchant may keep a token.
 */
import type { Logger } from '@gateway/observability';

/** Long enough for a merchant on the same network, short enough that a dead one costs little. */
const WEBHOOK_TIMEOUT_MS = 5_000;

export class WebhookPoster {
  private readonly underWay = new Set<AbortController>();

  constructor(private readonly log: Logger) {}

  /** POSTs `body` as JSON to `url`; returns before anything is sent. */
  post(url: string, body: object, context: Readonly<Record<string, unknown>>): void {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new Error('timed out')), WEBHOOK_TIMEOUT_MS);
    this.underWay.add(controller);
    const where = { ...context, webhookOrigin: new URL(url).origin };
    fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), redirect: 'manual', signal: controller.signal })
      .then(async (res) => {
        await res.body?.cancel();
        if (res.ok) this.log.info({ ...where, status: res.status }, 'webhook delivered');
        else this.log.warn({ ...where, status: res.status }, 'webhook refused');
      })
      .catch((err: unknown) => {
        this.log.warn({ ...where, reason: reasonOf(controller, err) }, 'webhook not delivered');
      })
      .finally(() => {
        clearTimeout(timer);
        this.underWay.delete(controller);
      });
  }

  /** Aborts every post under way. */
  stop(): void {
    for (const controller of this.underWay) controller.abort(new Error('stopping'));
  }
}

/** Why a post failed, in words that carry no address: the timeout, the stop, or the network's error code. */
function reasonOf(controller: AbortController, err: unknown): string {
  if (controller.signal.aborted) return String((controller.signal.reason as Error | undefined)?.message ?? 'aborted');
  const code = (err as { cause?: { code?: unknown } } | undefined)?.cause?.code;
  return typeof code === 'string' ? code : 'network error';
}
