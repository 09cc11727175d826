/** The dashboard service's HTTP listener: /dashboard/ for merchants, /ops/ for operators, health and metrics. */
import { CardSealer } from '@gateway/card-sealing';
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import type { RpcClient } from '@gateway/messaging';
import { describeError, type Logger } from '@gateway/observability';
import { addHealthRoutes, bodyRefusal, requestIdOf, type ReadinessCheck, type RequestListener } from '@gateway/runtime';
import type { DashboardConfig } from '../config.js';
import type { AccountsDeps } from '../domain/accounts.js';
import { failurePage as failureView, notFoundPage } from '../views/failure.page.js';
import { BASE, baseOf } from '../views/paths.js';
import { accountLinkRoutes } from './account-links.routes.js';
import { failurePage, languageOf, send, type DoorDeps, type ExportLimits } from './door.js';
import { apiKeyRoutes } from './merchant/api-keys.routes.js';
import { auditLogRoutes } from './merchant/audit-log.routes.js';
import { exchangeRateRoutes } from './merchant/exchange-rates.routes.js';
import { homeRoutes } from './merchant/home.routes.js';
import { merchantPage } from './merchant/merchant-page.js';
import { modeRoutes } from './merchant/mode.routes.js';
import { customerRoutes } from './merchant/customers.routes.js';
import { paymentLinkRoutes } from './merchant/payment-links.routes.js';
import { paymentRoutes } from './merchant/payments.routes.js';
import { reportRoutes } from './merchant/reports.routes.js';
import { settingsRoutes } from './merchant/settings.routes.js';
import { teamRoutes } from './merchant/team.routes.js';
import { webhookRoutes } from './merchant/webhooks.routes.js';
import { opsRoutes } from './ops/ops.routes.js';
import { securityRoutes } from './security.routes.js';
import { signInRoutes } from './sign-in.routes.js';

interface WebDependencies {
  config: DashboardConfig;
  accounts: AccountsDeps;
  rpc: RpcClient;
  log: Logger;
  readiness: Record<string, ReadinessCheck>;
  /** The slots of running exports, the API gateway's (D29: EXPORTS_PER_MERCHANT). */
  exportSlots: ExportLimits['slots'];
}

/** http://localhost (and 127.0.0.1) is the one origin whose cookies may go without Secure (D14). */
function isLocalHttp(origin: URL): boolean {
  return origin.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(origin.hostname);
}

/** The listener of both doors, health and metrics; an unknown path or a failure becomes our page, never Express's. */
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
    exports: { slots: deps.exportSlots, idleTimeoutMs: deps.config.exportIdleTimeoutMs, maxSeconds: deps.config.exportMaxSeconds },
    sealer: CardSealer.fromJwk(deps.config.adapterSealingKey),
  };

  const dashboard = Router({ strict: false });
  signInRoutes(door, 'dashboard', dashboard);
  accountLinkRoutes(door, 'dashboard', dashboard);
  // D21: the dashboard opens on Home.
  dashboard.get('/', (_req, res) => send(res, { redirect: `${BASE}/home` }));
  modeRoutes(door, dashboard);
  homeRoutes(door, dashboard);
  paymentRoutes(door, dashboard);
  paymentLinkRoutes(door, dashboard);
  customerRoutes(door, dashboard);
  reportRoutes(door, dashboard);
  apiKeyRoutes(door, dashboard);
  webhookRoutes(door, dashboard);
  exchangeRateRoutes(door, dashboard);
  teamRoutes(door, dashboard);
  auditLogRoutes(door, dashboard);
  settingsRoutes(door, dashboard);
  securityRoutes(door, 'dashboard', dashboard, async (viewer, section, page, status) => (await merchantPage(door, viewer)).render(section, page, status));
  app.use(BASE, dashboard);

  const ops = Router({ strict: false });
  signInRoutes(door, 'ops', ops);
  accountLinkRoutes(door, 'ops', ops);
  opsRoutes(door, ops);
  app.use('/ops', ops);

  app.use((req, res) => send(res, { page: notFoundPage(languageOf(req), baseOf(req.path)), status: 404 }));
  // A body that cannot be read (too large, too many fields, another charset, malformed), or any
  // other error no page handled: our page in the page's language, never Express's (with its stack).
  app.use((err: unknown, req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) {
      next(err);
      return;
    }
    const base = baseOf(req.path);
    const refused = bodyRefusal(err);
    if (!refused) {
      send(res, failurePage(door, req, res, err, base));
      return;
    }
    deps.log.warn({ err: describeError(err), reason: refused.type, requestId: requestIdOf(res) }, 'form refused');
    const tooLarge = refused.type === 'entity.too.large';
    send(res, { page: failureView(languageOf(req), base, (t) => (tooLarge ? t('form_too_large') : t('form_unreadable'))), status: tooLarge ? 413 : 400 });
  });
  return app;
}
