/**
 * The security headers of the hosted pages: D9's on every page, and on the
 * two pages that hand the buyer's browser to the issuer (D30) a policy that
 * lets them run our script and post (and, for the 3DS Method, frame) the one
 * origin the acquirer named, which the domain has checked.
 */
import { pageSecurityHeaders } from '@gateway/runtime';
import type { CheckoutPage } from '../domain/page-answers.js';

export const SECURITY_HEADERS = pageSecurityHeaders();

/** The headers `page` needs over D9's; undefined when D9's hold as they are. */
export function pageHeaders(page: CheckoutPage): Readonly<Record<string, string>> | undefined {
  switch (page.page) {
    case 'bank':
      return pageSecurityHeaders({ scripts: true, formOrigins: [page.origin] });
    case 'method':
      return pageSecurityHeaders({ scripts: true, formOrigins: [page.origin], frameOrigins: [page.origin] });
    default:
      return undefined;
  }
}
