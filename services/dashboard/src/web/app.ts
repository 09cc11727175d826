/** The dashboard service's HTTP listener: /dashboard/ for merchants, /ops/ for operators, health and metrics. */
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import type { RpcClient } from '@gateway/messaging';
import { describeError, type Logger } from '@gateway/observability';
import { AppError } from '@gateway/problem';
import { addHealthRoutes, bodyRefusal, html, requestIdOf, type ReadinessCheck, type RequestListener } from '@gateway/runtime';
import type { DashboardConfig } from '../config.js';
import type { AccountsDeps } from '../identity/accounts.js';
import { barePage, failurePage, languageOf, send, type DoorDeps } from './door.js';
import { wordsIn } from '../views/texts/catalogue.js';
import { notice } from './layout.js';
import { apiKeyRoutes } from './merchant/api-keys.js';
import { brandSettingsRoutes } from './merchant/brand-settings.js';
import { BASE, merchantPage, needs } from './merchant/frame.js';
import { homeRoutes } from './merchant/home.js';
import { paymentLinkRoutes } from './merchant/payment-links.js';
import { paymentRoutes } from './merchant/payments.js';
import { reportRoutes } from './merchant/reports.js';
import { settingsRoutes } from './merchant/settings.js';
import { webhookRoutes } from './merchant/webhooks.js';
import { opsRoutes } from './ops/routes.js';
import { securityRoutes } from './security.js';
import { backWithin, formBody, signedIn, signInRoutes } from './sign-in.js';

export interface WebDependencies {
  config: DashboardConfig;
  accounts: AccountsDeps;
  rpc: RpcClient;
  log: Logger;
  readiness: Record<string, ReadinessCheck>;
}

/** http://localhost (and 127.0.0.1) is the one origin whose cookies may go without Secure (D14). */
function isLocalHttp(origin: URL): boolean {
  return origin.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(origin.hostname);
}

export function createDashboardListener(deps: WebDependencies): RequestListener {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  addHealthRoutes(app, deps.readiness, deps.log);

  const publicOrigin = new URL(deps.config.publicBaseUrl);
  const door: DoorDeps = {
    accounts: deps.accounts,
    rpc: deps.rpc,
    log: deps.log,
    sessionIdleSeconds: deps.config.sessionIdleSeconds,
    secureCookies: !isLocalHttp(publicOrigin),
    publicOrigin: publicOrigin.origin,
    opsTotpRequired: deps.config.opsTotpRequired,
    keyRotationGracesSeconds: deps.config.keyRotationGracesSeconds,
    trustProxyHops: deps.config.trustProxyHops,
  };

  const dashboard = Router({ strict: false });
  signInRoutes(door, 'dashboard', dashboard);
  // D21: the dashboard opens on Home.
  dashboard.get('/', (_req, res) => send(res, { redirect: `${BASE}/home` }));
  dashboard.post(
    '/mode',
    formBody,
    signedIn(door, 'dashboard', needs('read'), async (req, viewer) => {
      const mode = (req.body as Record<string, unknown>)['mode'];
      if (mode !== 'test' && mode !== 'live') throw new AppError('validation-error', 'Choose test or live mode.');
      await deps.accounts.people.setMode(viewer.sessionHash, mode);
      return { redirect: backWithin(BASE, (req.body as Record<string, unknown>)['back']) };
    }),
  );
  homeRoutes(door, dashboard);
  paymentRoutes(door, dashboard);
  paymentLinkRoutes(door, dashboard);
  reportRoutes(door, dashboard);
  apiKeyRoutes(door, dashboard);
  webhookRoutes(door, dashboard);
  settingsRoutes(door, dashboard);
  brandSettingsRoutes(door, dashboard);
  securityRoutes(door, 'dashboard', dashboard, async (viewer, section, title, body, status) => (await merchantPage(door, viewer)).render(section, title, body, status));
  app.use(BASE, dashboard);

  const ops = Router({ strict: false });
  signInRoutes(door, 'ops', ops);
  opsRoutes(door, ops);
  app.use('/ops', ops);

  app.use((req, res) => {
    const base = req.path.startsWith('/ops') ? '/ops' : BASE;
    const t = wordsIn(languageOf(req));
    send(res, { page: barePage(req, base, t('not_found_title'), html`<h1>${t('not_found_title')}</h1><p>${t('no_such_page')} <a href="${base}/">${t('start_again_link')}</a>.</p>`), status: 404 });
  });
  // A body that cannot be read (too large, too many fields, another charset, malformed), or any
  // other error no page handled: our page in the page's language, never Express's (with its stack).
  app.use((err: unknown, req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) {
      next(err);
      return;
    }
    const base = req.path.startsWith('/ops') ? '/ops' : BASE;
    const refused = bodyRefusal(err);
    if (!refused) {
      send(res, failurePage(door, req, res, err, base));
      return;
    }
    deps.log.warn({ err: describeError(err), reason: refused.type, requestId: requestIdOf(res) }, 'form refused');
    const t = wordsIn(languageOf(req));
    const tooLarge = refused.type === 'entity.too.large';
    const body = html`<h1>${t('something_went_wrong')}</h1>${notice('error', tooLarge ? t('form_too_large') : t('form_unreadable'))}`;
    send(res, { page: barePage(req, base, t('something_went_wrong'), body), status: tooLarge ? 413 : 400 });
  });
  return app;
}
