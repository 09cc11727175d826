/**
 * A payment link's public routes under /pay/ (D19): its page, the page's
 * form, and its QR codes. Thin: each calls one step and renders what it
 * decided. The pages carry the hosted page's security headers; the QR codes
 * are public images, cacheable, of the payment link's URL alone.
 */
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import QRCode from 'qrcode';
import { describeError, type Logger } from '@gateway/observability';
import { bodyRefusal, clientAddress, formBody, requestIdOf, type FormLimits } from '@gateway/runtime';
import type { BrandingRepository } from '../db/branding.repository.js';
import { brandView, type BrandView } from '../domain/branding.js';
import { payByPaymentLink, showPaymentLinkPage, type PaymentLinkAnswer, type PayByPaymentLinkDeps } from '../domain/pay-by-payment-link.js';
import { linkUrl } from '../domain/payment-links.js';
import { pageTranslator, renderErrorPage, renderPaymentLinkNoticePage, renderPaymentLinkPage, renderUnavailablePage } from '../pages/index.js';
import { sendErrorPage, sendFailurePage, sendHtml, sendSeeOther } from './answers.js';
import { SECURITY_HEADERS } from './page-headers.js';

const LINK_FORM_LIMITS: FormLimits = { maxBytes: 4 * 1024, maxFields: 20 };
/** A payment link's URL never changes: its QR code may be kept a day. */
const QR_CACHE_CONTROL = 'public, max-age=86400';

export interface PayRoutesOptions {
  /** How many proxies of ours stand in front: the buyer's address is the X-Forwarded-For entry that many hops back. */
  trustProxyHops: number;
}

export function addPayRoutes(app: Express, deps: PayByPaymentLinkDeps, log: Logger, options: PayRoutesOptions, brands: BrandingRepository): void {
  const router = express.Router({ caseSensitive: true });
  router.use('/pay', (_req, res, next) => {
    res.set(SECURITY_HEADERS);
    next();
  });
  router.get('/pay/:code/qr.svg', qr(deps, log, 'svg'));
  router.get('/pay/:code/qr.png', qr(deps, log, 'png'));
  router.get('/pay/:code', pageStep(log, brands, (req) => showPaymentLinkPage(deps, String(req.params['code']), req.headers['accept-language'])));
  router.post(
    '/pay/:code',
    formBody(LINK_FORM_LIMITS),
    pageStep(log, brands, (req, res) =>
      payByPaymentLink(deps, String(req.params['code']), (req.body ?? {}) as Record<string, unknown>, {
        address: clientAddress(req, options.trustProxyHops),
        acceptLanguage: req.headers['accept-language'],
        requestId: requestIdOf(res) || `pay_${Date.now()}`,
      }),
    ),
  );
  app.use(router);

  app.use('/pay', (req, res) => {
    sendErrorPage(res, 404, req.headers['accept-language']);
  });
  app.use('/pay', (err: unknown, req: Request, res: Response, _next: NextFunction) => {
    log.warn({ err: describeError(err), reason: bodyRefusal(err)?.type }, 'payment link request refused');
    res.set(SECURITY_HEADERS);
    sendErrorPage(res, 400, req.headers['accept-language']);
  });
}

/** The QR code of a payment link's URL, as SVG or PNG; an unknown code is a 404 page. */
function qr(deps: PayByPaymentLinkDeps, log: Logger, format: 'svg' | 'png') {
  return async (req: Request, res: Response): Promise<void> => {
    try {
      const link = await deps.paymentLinks.findByCode(String(req.params['code']));
      if (!link) return sendErrorPage(res, 404, req.headers['accept-language']);
      const url = linkUrl(deps.publicBaseUrl, link.code);
      res.set('Cache-Control', QR_CACHE_CONTROL);
      if (format === 'svg') {
        res.type('image/svg+xml').send(await QRCode.toString(url, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 }));
      } else {
        res.type('image/png').send(await QRCode.toBuffer(url, { type: 'png', errorCorrectionLevel: 'M', margin: 2, width: 512 }));
      }
    } catch (err) {
      log.error({ err: describeError(err) }, 'payment link QR code failed');
      sendErrorPage(res, 500, req.headers['accept-language']);
    }
  };
}

/** The handler of a page step: its answer as a page or a redirect; a failure is a page, logged. */
function pageStep(log: Logger, brands: BrandingRepository, run: (req: Request, res: Response) => Promise<PaymentLinkAnswer>) {
  return async (req: Request, res: Response): Promise<void> => {
    const acceptLanguage = req.headers['accept-language'];
    try {
      const answer = await run(req, res);
      // The payment link's page shows the merchant's branding (D20).
      const brand = 'page' in answer && answer.page === 'link' ? await brandView(brands, answer.view.merchantId) : {};
      send(res, answer, brand);
    } catch (err) {
      sendFailurePage(res, log, err, acceptLanguage, 'payment link step');
    }
  };
}

function send(res: Response, answer: PaymentLinkAnswer, brand: BrandView): void {
  if ('redirect' in answer) return sendSeeOther(res, answer.redirect);
  const t = pageTranslator(answer.language);
  switch (answer.page) {
    case 'link':
      return sendHtml(res, answer.status, renderPaymentLinkPage(t, answer.view, brand));
    case 'closed':
      return sendHtml(res, answer.status, renderPaymentLinkNoticePage(t, 'closed'));
    case 'limited':
      res.set('Retry-After', String(answer.retryAfterSeconds));
      return sendHtml(res, answer.status, renderPaymentLinkNoticePage(t, 'limited'));
    case 'unavailable':
      return sendHtml(res, answer.status, renderUnavailablePage(t));
    case 'busy':
      return sendHtml(res, answer.status, renderUnavailablePage(t, 'payment-link-held'));
    case 'not-found':
      return sendHtml(res, answer.status, renderErrorPage(t, 404));
  }
}
