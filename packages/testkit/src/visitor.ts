/** An HTTP client of the dashboard's pages, for tests. */
import assert from 'node:assert/strict';

/** A browser without a browser: cookies kept, forms posted, redirects not followed. */
export class Visitor {
  private cookie = '';
  constructor(private readonly base: string) {}

  async get(path: string): Promise<{ status: number; html: string; location: string | null; headers: Headers }> {
    const res = await fetch(`${this.base}${path}`, { redirect: 'manual', headers: { cookie: this.cookie, 'accept-language': 'en' } });
    this.keep(res);
    return { status: res.status, html: await res.text(), location: res.headers.get('location'), headers: res.headers };
  }

  async post(path: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<{ status: number; html: string; location: string | null }> {
    const res = await fetch(`${this.base}${path}`, {
      method: 'POST',
      redirect: 'manual',
      body: new URLSearchParams(fields),
      headers: { cookie: this.cookie, 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'en', ...headers },
    });
    this.keep(res);
    return { status: res.status, html: await res.text(), location: res.headers.get('location') };
  }

  /** The CSRF token of the page at `path`. */
  async csrf(path: string): Promise<string> {
    const page = await this.get(path);
    const token = /name="_csrf" value="([^"]+)"/.exec(page.html)?.[1];
    assert.ok(token, `no CSRF field on ${path} (${page.status})`);
    return token;
  }

  setCookie(value: string): void {
    this.cookie = value;
  }

  get cookies(): string {
    return this.cookie;
  }

  private keep(res: Response): void {
    for (const set of res.headers.getSetCookie()) {
      const [pair = ''] = set.split(';');
      const name = pair.split('=')[0] ?? '';
      const rest = this.cookie
        .split('; ')
        .filter((c) => c && !c.startsWith(`${name}=`))
        .join('; ');
      this.cookie = /=$/.test(pair) ? rest : [rest, pair].filter(Boolean).join('; ');
    }
  }
}
