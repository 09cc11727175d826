/** Speaks the sandbox's Flouci API as an application does, and its payment page as a browser does (plain HTTP: GET the page, POST its form). */
import assert from 'node:assert/strict';
import { FLOUCI_APP, read, type Reply } from './sandbox-harness.js';

export const SUCCESS_LINK = 'https://merchant.example.tn/flouci/ok?cart=7';
export const FAIL_LINK = 'https://merchant.example.tn/flouci/ko';

/** A Flouci answer: `success`, then `result` or `message`. */
type FlouciBody = {
  success?: boolean;
  message?: string;
  code?: number;
  result?: Record<string, unknown> & { details?: Record<string, unknown> };
};

export interface FlouciReply extends Omit<Reply, 'body'> {
  body: FlouciBody;
}

export interface App {
  readonly publicKey: string;
  readonly privateKey: string;
}

/** `Authorization: Bearer PUBLIC:PRIVATE` of an application. */
export function bearer(app: App): string {
  return `Bearer ${app.publicKey}:${app.privateKey}`;
}

export class FlouciClient {
  constructor(
    readonly baseUrl: string,
    private readonly app: App = FLOUCI_APP,
  ) {}

  /** The same sandbox, as another application. */
  as(app: App): FlouciClient {
    return new FlouciClient(this.baseUrl, app);
  }

  /** A call with the application's Authorization, or `authorization` as given (null: none). */
  async call(method: 'GET' | 'POST', path: string, body?: unknown, authorization: string | null = bearer(this.app)): Promise<FlouciReply> {
    const headers: Record<string, string> = {};
    if (authorization !== null) headers['authorization'] = authorization;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${this.baseUrl}/api/v2/${path}`, { method, headers, ...(body !== undefined && { body: JSON.stringify(body) }) });
    return (await read(res)) as FlouciReply;
  }

  /** generate_payment with valid fields, `fields` over them (undefined removes one). */
  generate(fields: Record<string, unknown> = {}): Promise<FlouciReply> {
    const body = Object.fromEntries(
      Object.entries({ amount: 125500, developer_tracking_id: 'attempt-1', success_link: SUCCESS_LINK, fail_link: FAIL_LINK, accept_card: false, ...fields }).filter(([, value]) => value !== undefined),
    );
    return this.call('POST', 'generate_payment', body);
  }

  /**
   * A fresh payment's id, and its page: `link` as answered (at the sandbox's
   * public address), `page` the same path at this sandbox, where a test's
   * browser finds it; the call must succeed.
   */
  async newPayment(fields: Record<string, unknown> = {}): Promise<{ paymentId: string; link: string; page: string }> {
    const reply = await this.generate(fields);
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.body.result?.['success'], true, reply.text);
    const link = String(reply.body.result?.['link']);
    return { paymentId: String(reply.body.result?.['payment_id']), link, page: new URL(new URL(link).pathname, this.baseUrl).toString() };
  }

  verify(paymentId: string): Promise<FlouciReply> {
    return this.call('GET', `verify_payment/${encodeURIComponent(paymentId)}`);
  }

  /** verify_payment's status; the call must succeed. */
  async statusOf(paymentId: string): Promise<unknown> {
    const reply = await this.verify(paymentId);
    assert.equal(reply.body.success, true, reply.text);
    return reply.body.result?.['status'];
  }

  confirm(paymentId: string, fields: Record<string, unknown> = {}): Promise<FlouciReply> {
    return this.call('POST', 'confirm_payment', { payment_id: paymentId, ...fields });
  }

  cancel(paymentId: string): Promise<FlouciReply> {
    return this.call('POST', 'cancel_payment', { payment_id: paymentId });
  }

  refund(paymentId: string, fields: Record<string, unknown> = {}): Promise<FlouciReply> {
    return this.call('POST', 'refund_payment', { payment_id: paymentId, ...fields });
  }
}

/** The buyer opens a payment's page. */
export async function openPage(page: string): Promise<Reply> {
  return read(await fetch(page));
}

/** The buyer presses a button of a payment's page, as its form posts it; redirects are not followed. */
export async function answerPage(page: string, fields: { phone?: string; action?: string }): Promise<Reply> {
  const shown = await openPage(page);
  assert.equal(shown.status, 200, shown.text);
  const action = /<form method="post" action="([^"]+)">/.exec(shown.text)?.[1];
  assert.ok(action, 'the page has a form');
  const res = await fetch(new URL(action, page), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(Object.entries(fields).filter((entry): entry is [string, string] => entry[1] !== undefined)).toString(),
  });
  return read(res);
}

/** Confirm payment with this phone. */
export function payWith(page: string, phone: string): Promise<Reply> {
  return answerPage(page, { phone, action: 'confirm' });
}
