/** Events as the session service announces them, for driving the dispatcher directly. */
import { createHmac } from 'node:crypto';
import { newId, type Envelope, type SessionEventData, type WebhookEventType } from '@gateway/contracts';
import { eventEnvelope } from '@gateway/messaging';
import type { ReceivedWebhook } from '@gateway/testkit';

/** A session event of merchant `merchantId`, sent to `webhookUrl` ('' for the merchant's default). */
export function sessionEvent(
  type: WebhookEventType,
  merchantId: string,
  options: { webhookUrl?: string; sessionId?: string; livemode?: boolean } = {},
): Envelope<SessionEventData> {
  const sessionId = options.sessionId ?? newId('ps');
  return eventEnvelope(
    type,
    {
      merchant_id: merchantId,
      webhook_url: options.webhookUrl ?? '',
      session: {
        id: sessionId,
        order_number: 'TST-ABC123',
        merchant_reference: `ref-${sessionId}`,
        order_id: '',
        amount: '125.500',
        currency: 'TND',
        description: 'Two mugs',
        status: type === 'session.succeeded' ? 'SUCCEEDED' : type === 'session.canceled' ? 'CANCELED' : 'PENDING',
        livemode: options.livemode ?? false,
        buyer: { first_name: 'Amina', last_name: 'Ben Salah', email: 'amina@example.tn', phone: '' },
        items: [],
        metadata: { cart: '42' },
        original: { amount: '125.500', currency: 'TND', rate: '1.000000' },
      },
    },
    newId('cmd'),
  );
}

/** INTERFACE 6.3, computed here from the text of the rule: HMAC-SHA256 over `t.body`, keyed with the whole secret. */
export function independentSignature(secret: string, t: string, raw: Buffer): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(Buffer.concat([Buffer.from(`${t}.`, 'utf8'), raw])).digest('hex');
}

/** The `t` and every `v1` of a received signature header. */
export function signatureParts(received: ReceivedWebhook): { t: string; v1: string[] } {
  const parts = received.signature.split(',').map((p) => p.split('='));
  return { t: parts.find(([k]) => k === 't')?.[1] ?? '', v1: parts.filter(([k]) => k === 'v1').map(([, v]) => v ?? '') };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
