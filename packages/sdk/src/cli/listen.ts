/**
 * `gateway listen --forward-to URL`: receives the merchant's test-mode events
 * from the gateway's event stream as they happen, signs each exactly as a
 * webhook is signed (with a secret made for this session and printed once),
 * and POSTs it to a local URL, one printed line per event. A merchant's
 * receiver can so be tested on a laptop, no public URL needed.
 */
import { randomBytes } from 'node:crypto';
import { Gateway } from '../client.js';
import { GatewayError } from '../errors.js';
import { signatureHeader } from '../webhooks/signature.js';

export interface ListenOptions {
  apiKey: string;
  baseUrl: string;
  forwardTo: string;
  /** Where lines go; the console by default. */
  print?: (line: string) => void;
  signal?: AbortSignal;
}

/** How long a forward may take: the gateway's own webhook timeout (INTERFACE 6.4). */
const FORWARD_TIMEOUT_MS = 10_000;
const LONGEST_RECONNECT_PAUSE_MS = 30_000;

/** Listens until `signal` aborts; rejects when the gateway refuses the key (401, 403). */
export async function listen(options: ListenOptions): Promise<void> {
  const print = options.print ?? ((line: string) => console.log(line));
  const gateway = new Gateway(options.apiKey, { baseUrl: options.baseUrl });
  const secret = `whsec_${randomBytes(24).toString('hex')}`;
  let announced = false;
  for (let pause = 1000; !options.signal?.aborted; pause = Math.min(pause * 2, LONGEST_RECONNECT_PAUSE_MS)) {
    try {
      for await (const item of gateway.events.stream(options.signal ? { signal: options.signal } : {})) {
        if (item.kind === 'comment' && item.text === 'ready') {
          pause = 1000;
          if (!announced) print(`Ready. Forwarding test-mode events to ${options.forwardTo}. Your webhook signing secret is ${secret} (Ctrl-C to stop)`);
          announced = true;
        } else if (item.kind === 'event') {
          print(await forward(options.forwardTo, secret, item.event.id, item.event.event, item.event.data));
        }
      }
    } catch (err) {
      if (options.signal?.aborted) return;
      // A refused key will not get better by retrying.
      if (err instanceof GatewayError && err.status !== undefined && err.status < 500 && err.status !== 429) throw err;
      print(`${new Date().toISOString()}  stream interrupted (${err instanceof Error ? err.message : String(err)}); reconnecting`);
    }
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}

/** Signs and posts one event; the printed line: time, type, id, and the local answer. */
async function forward(url: string, secret: string, id: string, type: string, body: string): Promise<string> {
  const at = new Date();
  let outcome: string;
  try {
    const answer = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-service-signature': signatureHeader([secret], Math.floor(at.getTime() / 1000), body),
        'x-service-webhook-id': id,
        'x-service-event': type,
      },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
    });
    await answer.body?.cancel();
    outcome = String(answer.status);
  } catch (err) {
    outcome = `failed (${err instanceof Error ? err.message : String(err)})`;
  }
  return `${at.toISOString()}  ${type}  ${id}  -> ${outcome}`;
}
