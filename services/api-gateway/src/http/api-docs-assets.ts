/**
 * What the API reference page is made of: Swagger UI's script and stylesheet,
 * read from node_modules once per process, the few lines that start it on the
 * gateway's own OpenAPI document, and the page that loads them. Each asset is
 * named after its content's hash, so a browser may keep it for good, and is
 * kept gzipped beside its plain bytes, so no request compresses anything.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { html } from '@gateway/runtime';

/** One file the page loads, as sent. */
interface DocsAsset {
  readonly type: string;
  readonly body: Buffer;
  readonly gzipped: Buffer;
}

/** The page, and its assets by file name (`swagger-ui-bundle.<hash>.js`...). */
interface ApiDocs {
  readonly page: string;
  readonly assets: ReadonlyMap<string, DocsAsset>;
}

const gzipped = promisify(gzip);
// Resolved by path, not imported: the package's entry would load the whole browser bundle into Node.
const require = createRequire(import.meta.url);

/** The renderer's own files: read and compressed once, whatever the number of listeners a process makes. */
let renderer: Promise<{ script: Named; stylesheet: Named }> | undefined;

interface Named {
  readonly file: string;
  readonly asset: DocsAsset;
}

async function named(name: string, extension: string, type: string, body: Buffer): Promise<Named> {
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 16);
  return { file: `${name}.${hash}.${extension}`, asset: { type, body, gzipped: await gzipped(body) } };
}

async function loadRenderer(): Promise<{ script: Named; stylesheet: Named }> {
  const [bundle, stylesheet, pageBase] = await Promise.all([
    readFile(require.resolve('swagger-ui-dist/swagger-ui-bundle.js')),
    readFile(require.resolve('swagger-ui-dist/swagger-ui.css')),
    readFile(require.resolve('swagger-ui-dist/index.css')),
  ]);
  return {
    script: await named('swagger-ui-bundle', 'js', 'text/javascript; charset=utf-8', bundle),
    // index.css is the few page-wide rules (no margin, a light background) Swagger UI's own page adds.
    stylesheet: await named('swagger-ui', 'css', 'text/css; charset=utf-8', Buffer.concat([stylesheet, Buffer.from('\n'), pageBase])),
  };
}

/** The reference page served at `docsPath`, rendering the document at `openApiPath`, and its assets. */
export async function loadApiDocs(docsPath: string, openApiPath: string): Promise<ApiDocs> {
  renderer ??= loadRenderer();
  const { script, stylesheet } = await renderer;
  // No public validator (validatorUrl null): the page asks nothing of any host but the gateway.
  const options = { url: openApiPath, dom_id: '#reference', deepLinking: true, validatorUrl: null };
  const start = await named('api-reference', 'js', 'text/javascript; charset=utf-8', Buffer.from(`SwaggerUIBundle(${JSON.stringify(options)});\n`));
  const page = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${docsPath}/${stylesheet.file}">
</head>
<body>
<noscript><p>This reference needs JavaScript. The OpenAPI document it shows is at <a href="${openApiPath}">${openApiPath}</a>.</p></noscript>
<div id="reference"></div>
<script src="${docsPath}/${script.file}"></script>
<script src="${docsPath}/${start.file}"></script>
</body>
</html>
`;
  return { page: page.toString(), assets: new Map([script, stylesheet, start].map(({ file, asset }) => [file, asset])) };
}
