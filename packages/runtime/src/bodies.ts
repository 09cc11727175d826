/**
 * Form bodies of the express apps (the pages and the sandbox's acquirer
 * protocol), read by express's own parser with explicit limits; it does not
 * inflate a compressed body: a limit then bounds what is kept in memory.
 * (The gateway's API reads its JSON bodies through fastify: json-body.ts.)
 * What the parser refuses reaches the app's error handler as an error carrying
 * `status` and `type` (413 too large or too many fields, 415 a charset or an
 * encoding it cannot read); bodyRefusal reads them.
 * The request's context (its correlation id, its span) goes on past them.
 */
import express, { type RequestHandler } from 'express';
import { labelRoute } from './http-metrics.js';

export interface FormLimits {
  maxBytes: number;
  maxFields: number;
}

/**
 * application/x-www-form-urlencoded fields into req.body, a field given more
 * than once as an array of its values; any other content type leaves req.body
 * undefined. Field names are taken as they are (`a[b]` is one name); a field
 * named `__proto__` is dropped. UTF-8 only: the parser would also decode
 * Latin-1, which no page of ours sends and the acquirer's protocol refuses.
 * The route it stands in is labelled for the metrics before it reads, so a
 * refused body still counts under its route.
 */
export function formBody(limits: FormLimits): RequestHandler {
  const parse = express.urlencoded({ extended: false, limit: limits.maxBytes, parameterLimit: limits.maxFields, inflate: false });
  return (req, res, next) => {
    // Named now for the metrics and traces: express forgets the matched route once a refusal leaves it.
    const route = (req.route as { path?: unknown } | undefined)?.path;
    if (typeof route === 'string') labelRoute(res, `${req.baseUrl}${route}`);
    const charset = req.is('application/x-www-form-urlencoded') ? otherCharsetThanUtf8(req.headers['content-type']) : undefined;
    if (charset !== undefined) {
      next(Object.assign(new Error(`unsupported charset "${charset}"`), { status: 415, type: 'charset.unsupported' }));
      return;
    }
    parse(req, res, next);
  };
}

/**
 * The charset a Content-Type header names (quoted or not, in lower case) when
 * it is not UTF-8 (`utf-8`, or its alias `utf8`); undefined when it names UTF-8
 * or none. Every body we read is UTF-8: the one rule for forms and JSON.
 */
export function otherCharsetThanUtf8(contentType: string | undefined): string | undefined {
  const charset = CHARSET.exec(contentType ?? '')?.[2]?.toLowerCase();
  return charset === undefined || charset === 'utf-8' || charset === 'utf8' ? undefined : charset;
}

const CHARSET = /;\s*charset\s*=\s*("?)([^";\s]+)\1/i;

/** A body parser's refusal, a client's doing: its status (4xx) and `type`; undefined for any other error. */
export function bodyRefusal(err: unknown): { status: number; type: string } | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const { status, type } = err as { status?: unknown; type?: unknown };
  if (typeof status !== 'number' || status < 400 || status >= 500 || typeof type !== 'string') return undefined;
  return { status, type };
}
