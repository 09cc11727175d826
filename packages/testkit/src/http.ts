/** A small client of the public API for tests: raw status, headers and body, nothing hidden. */

export interface ApiResponse<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  /** The raw body text. */
  text: string;
  /** The parsed body (undefined when not JSON). */
  body: T;
}

export class ApiClient {
  constructor(
    readonly baseUrl: string,
    readonly key?: string,
  ) {}

  async request<T = Record<string, unknown>>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse<T>> {
    const init: RequestInit = { method, headers: { ...(this.key && { authorization: `Bearer ${this.key}` }), ...headers } };
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
    }
    const res = await fetch(`${this.baseUrl}${path}`, init);
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: res.status, headers: res.headers, text, body: parsed as T };
  }

  get<T = Record<string, unknown>>(path: string, headers?: Record<string, string>) {
    return this.request<T>('GET', path, undefined, headers);
  }

  post<T = Record<string, unknown>>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>('POST', path, body, headers);
  }
}

/** A valid create-session body; override any field. */
export function sessionRequest(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    amount: '125.500',
    merchant_reference: `order-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`,
    first_name: 'Amina',
    last_name: 'Ben Salah',
    email: 'amina@example.tn',
    ...overrides,
  };
}

/**
 * The sum of the series of metric `family` in Prometheus text whose labels
 * include every one of `labels` (as `name="value"` fragments); undefined when
 * no series matches.
 */
export function metricValue(text: string, family: string, labels: readonly string[] = []): number | undefined {
  let sum: number | undefined;
  for (const line of text.split('\n')) {
    if (!(line.startsWith(`${family}{`) || line.startsWith(`${family} `)) || !labels.every((label) => line.includes(label))) continue;
    sum = (sum ?? 0) + Number(line.split(' ').at(-1));
  }
  return sum;
}
