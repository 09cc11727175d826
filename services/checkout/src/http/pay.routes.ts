/**
 * A payment link's public routes under /pay/ (D19): its page, the page's
 * form, and its QR codes. Thin: each calls one step and renders what it
 * decided. The pages carry the hosted page's security headers; the QR codes
 * are public images, cacheable, of the payment link's URL alone, drawn once
 * per link and format and kept (bounded), limited per client address (D29).
 */
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import QRCode from 'qrcode';
import { negotiateLanguage } from '@gateway/i18n';
import { counter, describeError, type Logger } from '@gateway/observability';
import { bodyRefusal, clientAddress, formBody, requestIdOf, throttledAddress, type FormLimits } from '@gateway/runtime';
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
  /** QR code images one address may fetch in a minute (D29). */
  qrPerAddressPerMinute: number;
  /** QR code images kept drawn. */
  qrCacheEntries: number;
}

/** QR code images drawn, by format: each link's is drawn once while it stays in the cache. */
const qrDrawn = counter('checkout_qr_codes_drawn_total', 'QR code images of payment links drawn (not served from the cache)', ['format']);

/**
 * QR code images as drawn, by code and format, the least recently used
 * dropped first: a link's URL never changes, so its image never does.
 */
class QrCache {
  private readonly images = new Map<string, string | Buffer>();

  constructor(private readonly maxEntries: number) {}

  async image(code: string, format: 'svg' | 'png', draw: () => Promise<string | Buffer>): Promise<string | Buffer> {
    const key = `${format}:${code}`;
    const kept = this.images.get(key);
    if (kept !== undefined) {
      this.images.delete(key);
      this.images.set(key, kept);
      return kept;
    }
    const drawn = await draw();
    qrDrawn.inc({ format });
    this.images.set(key, drawn);
    if (this.images.size > this.maxEntries) this.images.delete(this.images.keys().next().value as string);
    return drawn;
  }
}

export function addPayRoutes(app: Express, deps: PayByPaymentLinkDeps, log: Logger, options: PayRoutesOptions, brands: BrandingRepository): void {
  const router = express.Router({ caseSensitive: true });
  router.use('/pay', (_req, res, next) => {
    res.set(SECURITY_HEADERS);
    next();
  });
  const qrCodes = { cache: new QrCache(options.qrCacheEntries), options };
  router.get('/pay/:code/qr.svg', qr(deps, log, qrCodes, 'svg'));
  router.get('/pay/:code/qr.png', qr(deps, log, qrCodes, 'png'));
  router.get('/pay/:code', pageStep(log, brands, (req) => showPaymentLinkPage(deps, String(req.params['code']), req.headers['accept-language'])));
  router.post(
    '/pay/:code',
    formBody(LINK_FORM_LIMITS),
    pageStep(log, brands, (req, res) =>
      payByPaymentLink(deps, String(req.params['code']), (req.body ?? {}) as Record<string, unknown>, {
        // Counted as every limit of ours counts a client: an IPv6 address by its /64.
        address: throttledAddress(clientAddress(req, options.trustProxyHops)),
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

/**
 * The QR code of a payment link's URL, as SVG or PNG, drawn once and kept; an
 * unknown code is a 404 page. One address asking too often in a minute gets
 * 429 with Retry-After (D29).
 */
function qr(deps: PayByPaymentLinkDeps, log: Logger, qrCodes: { cache: QrCache; options: PayRoutesOptions }, format: 'svg' | 'png') {
  return async (req: Request, res: Response): Promise<void> => {
    try {
      const now = deps.clock();
      const minute = new Date(Math.floor(now.getTime() / 60_000) * 60_000);
      if ((await deps.paymentLinks.countQrRequest(throttledAddress(clientAddress(req, qrCodes.options.trustProxyHops)), minute)) > qrCodes.options.qrPerAddressPerMinute) {
        res.set('Retry-After', String(Math.max(1, Math.ceil((minute.getTime() + 60_000 - now.getTime()) / 1000))));
        return sendHtml(res, 429, renderPaymentLinkNoticePage(pageTranslator(negotiateLanguage(req.headers['accept-language'], 'fr')), 'limited'));
      }
      const link = await deps.paymentLinks.findByCode(String(req.params['code']));
      if (!link) return sendErrorPage(res, 404, req.headers['accept-language']);
      const url = linkUrl(deps.publicBaseUrl, link.code);
      const image = await qrCodes.cache.image(link.code, format, () =>
        format === 'svg'
          ? QRCode.toString(url, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 })
          : QRCode.toBuffer(url, { type: 'png', errorCorrectionLevel: 'M', margin: 2, width: 512 }),
      );
      res.set('Cache-Control', QR_CACHE_CONTROL);
      res.type(format === 'svg' ? 'image/svg+xml' : 'image/png').send(image);
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
