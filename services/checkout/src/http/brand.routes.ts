/**
 * The merchants' logos and accent stylesheets under /checkout/brand/ (D20):
 * public, addressed by their content (a logo by its SHA-256, an accent
 * stylesheet by its colour), so cached for good. A logo is served as its
 * type and nothing else (nosniff); an SVG with a policy that lets it run and
 * load nothing, even opened on its own.
 */
import express, { type Express, type Request, type Response } from 'express';
import { describeError, type Logger } from '@gateway/observability';
import type { BrandingRepository } from '../db/branding.repository.js';
import { BRAND_PATH, darker } from '../domain/branding.js';
import { sendErrorPage } from './answers.js';
import { SECURITY_HEADERS } from './page-headers.js';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const LOGO_FILE = /^([0-9a-f]{64})\.(png|svg)$/;
const ACCENT_FILE = /^accent-([0-9a-f]{6})\.css$/;

export function addBrandRoutes(app: Express, brands: BrandingRepository, log: Logger): void {
  const router = express.Router({ caseSensitive: true });
  router.get(`${BRAND_PATH}/:file`, async (req: Request, res: Response) => {
    const file = String(req.params['file']);
    const accent = ACCENT_FILE.exec(file);
    if (accent) {
      const color = `#${accent[1]}`;
      res.set({ 'Cache-Control': IMMUTABLE, 'X-Content-Type-Options': 'nosniff' });
      res.type('text/css').send(`:root { --accent: ${color}; --accent-dark: ${darker(color)}; --heading: ${color}; }\n`);
      return;
    }
    const logo = LOGO_FILE.exec(file);
    try {
      const stored = logo ? await brands.logo(logo[1] ?? '', logo[2] === 'png' ? 'image/png' : 'image/svg+xml') : undefined;
      if (!stored) {
        res.set(SECURITY_HEADERS);
        return sendErrorPage(res, 404, req.headers['accept-language']);
      }
      res.set({ 'Content-Type': stored.type, 'Cache-Control': IMMUTABLE, 'X-Content-Type-Options': 'nosniff', 'Cross-Origin-Resource-Policy': 'cross-origin' });
      if (stored.type === 'image/svg+xml') res.set('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'");
      res.status(200).end(stored.bytes);
    } catch (err) {
      log.error({ err: describeError(err) }, 'logo could not be served');
      res.set(SECURITY_HEADERS);
      sendErrorPage(res, 500, req.headers['accept-language']);
    }
  });
  app.use(router);
}
