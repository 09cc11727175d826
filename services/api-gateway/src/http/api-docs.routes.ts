/**
 * GET /api/v1/docs: the OpenAPI document as a browsable reference (Swagger
 * UI), public like the document itself. The page loads only what the gateway
 * serves below it, and its policy allows nothing from anywhere else.
 */
import type { FastifyInstance } from 'fastify';
import { AppError } from '@gateway/problem';
import { pageSecurityHeaders } from '@gateway/runtime';
import { loadApiDocs } from './api-docs-assets.js';

/**
 * The pages' policy, plus what Swagger UI needs: to fetch the document from
 * the gateway (connect-src), and data: images, the small icons its stylesheet
 * carries and the page's empty icon (which spares a request for /favicon.ico).
 * No inline script or style, no other host.
 */
const DOCS_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";
const PAGE_HEADERS = { ...pageSecurityHeaders({ scripts: true }), 'Content-Security-Policy': DOCS_POLICY };
/** An asset's name is its content's hash: a new release is a new name. */
const ASSET_HEADERS = { 'Cache-Control': 'public, max-age=31536000, immutable', 'X-Content-Type-Options': 'nosniff', Vary: 'Accept-Encoding' };

/** Serves the reference page at `docsPath` and its assets below it; the page renders the document at `openApiPath`. */
export async function addApiDocsRoutes(app: FastifyInstance, docsPath: string, openApiPath: string): Promise<void> {
  const docs = await loadApiDocs(docsPath, openApiPath);
  app.get(docsPath, async (_request, reply) => reply.headers(PAGE_HEADERS).type('text/html; charset=utf-8').send(docs.page));
  app.get(`${docsPath}/:file`, async (request, reply) => {
    const asset = docs.assets.get((request.params as { file: string }).file);
    if (!asset) throw new AppError('not-found', 'No such route.');
    const gzip = acceptsGzip(request.headers['accept-encoding']);
    if (gzip) reply.header('Content-Encoding', 'gzip');
    return reply.headers(ASSET_HEADERS).type(asset.type).send(gzip ? asset.gzipped : asset.body);
  });
}

/** Whether an Accept-Encoding header takes gzip: named, and not with q=0. */
function acceptsGzip(header: string | undefined): boolean {
  return (header ?? '').split(',').some((entry) => {
    const [coding, ...parameters] = entry.split(';').map((part) => part.trim().toLowerCase());
    return (coding === 'gzip' || coding === 'x-gzip') && !parameters.some((parameter) => /^q=0(\.0{0,3})?$/.test(parameter));
  });
}
