/**
 * The API reference page (GET /api/v1/docs): the gateway's OpenAPI document
 * rendered by Swagger UI, every byte of it from the gateway. Over HTTP: the
 * page, its policy and its assets' caching and compression; in Chromium: every
 * path of the document listed, no request to any other origin, no error.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { repoRoot } from '@gateway/system';
import { launchBrowser, TestSystem, type TestBrowser } from '@gateway/testkit';

const DOCS = '/api/v1/docs';
/** Where the gateway's renderer comes from, resolved as the gateway resolves it. */
const renderer = createRequire(join(repoRoot, 'services', 'api-gateway', 'package.json'));

interface Fetched {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The bytes as they crossed the wire, not decompressed. */
  bytes: Buffer;
}

/** A GET as a browser would send it, the answer's bytes as sent (fetch would decompress them). */
function get(url: string, headers: Record<string, string> = {}): Promise<Fetched> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }));
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

/** The `src` and `href` of the page's scripts and stylesheet, in order. */
function assetsOf(page: string): string[] {
  return [...page.matchAll(/<(?:script src|link rel="stylesheet" href)="([^"]+)"/g)].map((match) => match[1] ?? '');
}

describe('The API reference page', function () {
  this.timeout(90_000);
  let system: TestSystem;
  let browser: TestBrowser;

  before(async () => {
    // The page and the document need the gateway alone.
    [system, browser] = await Promise.all([TestSystem.start({ services: ['api-gateway'] }), launchBrowser()]);
  });

  after(async () => {
    await browser?.close();
    await system?.shutdown();
  });

  it('when /api/v1/docs is asked for without a key, then it answers an HTML page whose policy allows scripts and styles from the gateway alone', async () => {
    for (const path of [DOCS, `${DOCS}/`]) {
      const res = await get(`${system.baseUrl}${path}`);
      assert.equal(res.status, 200, path);
      assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
      assert.equal(
        res.headers['content-security-policy'],
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
      );
      assert.equal(res.headers['x-frame-options'], 'DENY');
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
      assert.equal(res.headers['referrer-policy'], 'no-referrer');
      assert.equal(res.headers['cache-control'], 'no-store');
      const page = res.bytes.toString('utf8');
      assert.deepEqual(
        assetsOf(page).map((src) => src.replace(/\.[0-9a-f]{16}\./, '.<hash>.')),
        [`${DOCS}/swagger-ui.<hash>.css`, `${DOCS}/swagger-ui-bundle.<hash>.js`, `${DOCS}/api-reference.<hash>.js`],
      );
      assert.doesNotMatch(page, /https?:\/\//, 'the page names no other host');
    }
  });

  it("when the page's assets are fetched, then each is named by its content's hash, cached for good, and gzipped when the client takes it", async () => {
    const page = (await get(`${system.baseUrl}${DOCS}`)).bytes.toString('utf8');
    const [stylesheet, bundle, start] = assetsOf(page);
    const types = new Map([
      [stylesheet, 'text/css; charset=utf-8'],
      [bundle, 'text/javascript; charset=utf-8'],
      [start, 'text/javascript; charset=utf-8'],
    ]);
    for (const [path, type] of types) {
      const plain = await get(`${system.baseUrl}${path}`);
      assert.equal(plain.status, 200, path);
      assert.equal(plain.headers['content-type'], type, path);
      assert.equal(plain.headers['cache-control'], 'public, max-age=31536000, immutable', path);
      assert.equal(plain.headers['x-content-type-options'], 'nosniff', path);
      assert.equal(plain.headers['vary'], 'Accept-Encoding', path);
      assert.equal(plain.headers['content-encoding'], undefined, path);
      assert.equal(Number(plain.headers['content-length']), plain.bytes.length, path);
      assert.ok(path?.includes(`.${createHash('sha256').update(plain.bytes).digest('hex').slice(0, 16)}.`), `${path} is named by its hash`);

      const compressed = await get(`${system.baseUrl}${path}`, { 'accept-encoding': 'gzip, deflate, br' });
      assert.equal(compressed.headers['content-encoding'], 'gzip', path);
      assert.equal(compressed.headers['cache-control'], 'public, max-age=31536000, immutable', path);
      assert.ok(gunzipSync(compressed.bytes).equals(plain.bytes), `${path} gzipped is the same file`);
      // The starting lines are too short to shrink; Swagger UI's files are not.
      if (path !== start) assert.ok(compressed.bytes.length < plain.bytes.length / 2, `${path} gzipped is under half its size`);

      const refused = await get(`${system.baseUrl}${path}`, { 'accept-encoding': 'gzip;q=0, identity' });
      assert.equal(refused.headers['content-encoding'], undefined, `${path}: gzip;q=0 is plain`);
    }

    const vendorScript = readFileSync(renderer.resolve('swagger-ui-dist/swagger-ui-bundle.js'));
    assert.ok((await get(`${system.baseUrl}${bundle}`)).bytes.equals(vendorScript), "the bundle is Swagger UI's, as npm installed it");
    const vendorStyles = readFileSync(renderer.resolve('swagger-ui-dist/swagger-ui.css'));
    assert.ok((await get(`${system.baseUrl}${stylesheet}`)).bytes.subarray(0, vendorStyles.length).equals(vendorStyles), "the stylesheet is Swagger UI's");
    const startText = (await get(`${system.baseUrl}${start}`)).bytes.toString('utf8');
    assert.match(startText, /^SwaggerUIBundle\(\{"url":"\/api\/v1\/openapi\.json",/);
    assert.match(startText, /"validatorUrl":null/);

    const unknown = await get(`${system.baseUrl}${DOCS}/swagger-ui-bundle.0000000000000000.js`);
    assert.equal(unknown.status, 404);
    assert.equal(unknown.headers['content-type'], 'application/problem+json; charset=utf-8');
  });

  it('when the page is opened in Chromium, then every path of the OpenAPI document is listed, no request leaves the gateway, and nothing is logged as an error', async () => {
    const openApi = (await (await fetch(`${system.apiUrl}/openapi.json`)).json()) as { paths: Record<string, unknown>; webhooks: Record<string, unknown> };
    const page = await browser.newPage();
    const requested: string[] = [];
    const failed: string[] = [];
    const errors: string[] = [];
    page.on('request', (sent) => requested.push(sent.url()));
    page.on('requestfailed', (sent) => failed.push(`${sent.url()}: ${sent.failure()?.errorText ?? ''}`));
    page.on('response', (answer) => void (answer.status() >= 400 && failed.push(`${answer.url()}: ${answer.status()}`)));
    page.on('console', (message) => void (message.type() === 'error' && errors.push(message.text())));
    page.on('pageerror', (error) => errors.push(error.message));

    const loaded = await page.goto(`${system.baseUrl}${DOCS}`);
    assert.equal(loaded?.status(), 200);
    const paths = Object.keys(openApi.paths);
    // Swagger UI fetches the document, then renders one block per operation, each carrying its path.
    await page.locator('.opblock-summary-path').nth(paths.length - 1).waitFor({ timeout: 30_000 });
    const listed = await page.locator('.opblock-summary-path').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-path')));
    assert.deepEqual(paths.filter((path) => !listed.includes(path)), [], 'every path is listed');
    const text = (await page.locator('#reference').innerText()).replace(/\u200b/g, '');
    assert.deepEqual(paths.filter((path) => !text.includes(path)), [], "every path's text is shown");
    assert.deepEqual(Object.keys(openApi.webhooks).filter((event) => !text.includes(event)), [], 'every webhook event is shown');
    // An operation opened shows its parameters, schemas and examples, drawn with the stylesheet's icons.
    await page.locator('.opblock-summary-path[data-path="/gateway/sessions/"]').click();
    await page.getByText('CreateSessionRequest').first().waitFor();

    const origin = new URL(system.baseUrl).origin;
    assert.deepEqual(requested.filter((url) => !url.startsWith('data:') && new URL(url).origin !== origin), [], 'no request leaves the gateway');
    assert.ok(requested.includes(`${system.apiUrl}/openapi.json`), "the page renders the gateway's own document");
    assert.deepEqual(failed, []);
    assert.deepEqual(errors, []);
    await page.close();
  });
});
