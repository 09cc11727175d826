/** The headers of the sandbox's pages, and how a page is sent. */
import type { Response } from 'express';

/**
 * Nothing external, no script, never framed or cached, no referrer. Forms may
 * post to any http(s) address: a page hands the buyer back to a merchant,
 * whose address its caller gave (form-action also governs the redirect after
 * a form is posted).
 */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Cache-Control': 'no-store',
  'X-Frame-Options': 'DENY',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; form-action http: https:; frame-ancestors 'none'; base-uri 'none'",
  'Referrer-Policy': 'no-referrer',
};

/** Sends a page with its status and headers. */
export function sendPage(res: Response, status: number, body: string, headers: Readonly<Record<string, string>> = PAGE_HEADERS): void {
  res.set(headers).type('text/html; charset=utf-8').status(status).send(body);
}
