/** Starts the sandbox in-process on port 0, with its log lines captured, and speaks its protocol. */
import { Writable } from 'node:stream';
import { createLogger } from '@gateway/observability';
import { loadSandboxConfig, startSandbox, type SandboxOptions } from '../../src/service.js';

export const TERMINAL = { userName: 'gateway-test', password: 'gateway-test-password' } as const;
export const OTHER_TERMINAL = { userName: 'other-shop', password: 'other-shop-password' } as const;
export const RETURN_URL = 'https://merchant.example.tn/return';
/** The Flouci applications the harness's sandbox knows: `Authorization: Bearer <publicKey>:<privateKey>`. */
export const FLOUCI_APP = { publicKey: 'shop-flouci-public', privateKey: 'shop-flouci-private:with-colon' } as const;
export const OTHER_FLOUCI_APP = { publicKey: 'other-flouci-public', privateKey: 'other-flouci-private' } as const;

export type Body = Record<string, unknown> & {
  errorCode?: string | number;
  errorMessage?: string;
  /** reverse.do, refund.do and deposit.do write their code capitalised. */
  ErrorCode?: string;
  ErrorMessage?: string;
  orderStatus?: number;
  actionCode?: number;
  paymentAmountInfo?: { approvedAmount: number; depositedAmount: number; refundedAmount: number; paymentState: string };
  cardAuthInfo?: { maskedPan?: string; pan?: string; expiration: string; cardholderName: string; approvalCode?: string; secureAuthInfo?: { eci: string } };
  bindingInfo?: { clientId: string; bindingId: string };
};

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  body: Body;
}

export interface Harness {
  readonly baseUrl: string;
  /** Every log line written so far, as written. */
  readonly logs: string[];
  /** POSTs a form to /payment/rest/<call>, with the default terminal's credentials unless `credentials` is given. */
  call(call: string, fields: Record<string, string>, credentials?: Record<string, string>): Promise<Reply>;
  /** A fresh registered order (unique orderNumber), its id and number. */
  register(fields?: Record<string, string>, credentials?: Record<string, string>): Promise<{ orderId: string; orderNumber: string; reply: Reply }>;
  /** paymentorder.do with a valid future expiry, CVC 737 and a name. */
  pay(orderId: string, pan: string, fields?: Record<string, string>): Promise<Reply>;
  status(orderId: string, credentials?: Record<string, string>): Promise<Body>;
  stop(): Promise<void>;
}

/** The answer's code as a string, whichever way the call writes it (errorCode or ErrorCode, a string or a number); undefined when it has none. */
export function codeOf(body: Body): string | undefined {
  const code = body.errorCode ?? body.ErrorCode;
  return code === undefined ? undefined : String(code);
}

let counter = 0;

/** A unique orderNumber of at most 32 characters. */
export function orderNumber(): string {
  counter += 1;
  return `T${Date.now().toString(36)}-${counter}-${Math.random().toString(36).slice(2, 8)}`;
}

/** `options` gives the sandbox a clock of the test's own, for expiry. */
export async function startHarness(env: Record<string, string> = {}, options: SandboxOptions = {}): Promise<Harness> {
  const logs: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      logs.push(...String(chunk).split('\n').filter((line) => line !== ''));
      callback();
    },
  });
  const config = loadSandboxConfig({
    PORT: '0',
    SANDBOX_SLOW_DELAY_MS: '300',
    SANDBOX_TERMINALS: `${TERMINAL.userName}:${TERMINAL.password},${OTHER_TERMINAL.userName}:${OTHER_TERMINAL.password}`,
    SANDBOX_FLOUCI_APPS: `${FLOUCI_APP.publicKey}:${FLOUCI_APP.privateKey},${OTHER_FLOUCI_APP.publicKey}:${OTHER_FLOUCI_APP.privateKey}`,
    ...env,
  });
  const log = createLogger({ service: 'epg-sandbox', level: 'info', destination });
  const running = await startSandbox(config, log, options);
  const baseUrl = `http://127.0.0.1:${running.port}`;

  const call: Harness['call'] = async (name, fields, credentials = TERMINAL) => {
    const res = await fetch(`${baseUrl}/payment/rest/${name}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...credentials, ...fields }).toString(),
    });
    return read(res);
  };

  return {
    baseUrl,
    logs,
    call,
    async register(fields = {}, credentials = TERMINAL) {
      const number = fields['orderNumber'] ?? orderNumber();
      const reply = await call('register.do', { orderNumber: number, amount: '125500', returnUrl: RETURN_URL, ...fields }, credentials);
      return { orderId: String(reply.body['orderId']), orderNumber: number, reply };
    },
    pay(orderId, pan, fields = {}) {
      return call('paymentorder.do', { MDORDER: orderId, $PAN: pan, $CVC: '737', YYYY: String(new Date().getUTCFullYear() + 3), MM: '12', TEXT: 'Amina Ben Salah', ...fields });
    },
    async status(orderId, credentials = TERMINAL) {
      return (await call('getOrderStatusExtended.do', { orderId }, credentials)).body;
    },
    stop: () => running.stop(),
  };
}

export async function read(res: Response): Promise<Reply> {
  const text = await res.text();
  let body: Body = {};
  try {
    body = JSON.parse(text) as Body;
  } catch {
    // Not JSON: pages and plain-text errors; the test reads `text`.
  }
  return { status: res.status, headers: res.headers, text, body };
}
