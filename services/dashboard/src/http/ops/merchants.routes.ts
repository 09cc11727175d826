/**
 * Merchants in the operations console (D15): the list, one merchant, and the
 * changes gateway-admin makes (approve KYB, suspend, reactivate, limits,
 * fees, terminal), each the same operator command, signed for the operator,
 * with the owning service's rules and answers.
 */
import type { Request, Router } from 'express';
import type { Mode } from '@gateway/contracts';
import { describeError } from '@gateway/observability';
import { AppError, validationError } from '@gateway/problem';
import type { Html } from '@gateway/runtime';
import { notice } from '../../views/layout.js';
import { BUDGETS, changedMerchantPage, kybApprovedNotice, merchantPage, type Budget } from '../../views/ops/merchant.page.js';
import { MERCHANTS, merchantsPage } from '../../views/ops/merchants.page.js';
import type { Words } from '../../views/texts/catalogue.js';
import { acting, type DoorDeps } from '../door.js';
import { fieldOf, queryField, rawFieldOf } from '../form-fields.js';
import { formBody, signedIn } from '../signed-in.js';
import { operators, opsPage, type OpsPage } from './ops-page.js';

const PAGE_SIZE = 25;
const MERCHANT_ID = /^mer_[0-9A-Za-z]{20,}$/;
const MODES: readonly Mode[] = ['test', 'live'];

/** The merchant an address names; an id that cannot be one is no merchant, as an unknown one is not. */
function merchantIdOf(req: Request): string {
  const id = String(req.params['id']);
  if (!MERCHANT_ID.test(id)) throw new AppError('not-found', 'No such merchant.');
  return id;
}

/** A budget field: empty keeps the budget in force; otherwise a whole number of requests per second, as `limits set` takes. */
function budget(form: unknown, name: Budget, t: Words): number | undefined {
  const value = fieldOf(form, name);
  if (value === '') return undefined;
  if (!/^\d{1,9}$/.test(value)) throw validationError([{ field: name, code: 'invalid', message: t('budget_not_whole', { budget: name }) }]);
  return Number(value);
}

async function showMerchant(view: OpsPage, merchantId: string, message?: Html, status?: number) {
  const merchant = await view.command('merchant.get', { merchant_id: merchantId });
  const [fees, ...terminals] = await Promise.all([
    view.command('fees.get', { merchant_id: merchantId }),
    ...MODES.map((mode) => view.command('terminal.get', { merchant_id: merchantId, mode })),
  ]);
  return view.render(MERCHANTS, merchantPage(view.viewer, { merchant, fees, terminals }, message), status);
}

/** The Merchants routes: the list, one merchant, and its changes. */
export function merchantRoutes(deps: DoorDeps, router: Router): void {
  router.get(
    '/merchants',
    signedIn(deps, 'ops', operators, async (req, viewer) => {
      const view = opsPage(deps, viewer);
      const search = queryField(req, 'q');
      const status = queryField(req, 'status');
      const after = queryField(req, 'starting_after');
      if (status !== '' && status !== 'active' && status !== 'suspended') throw validationError([{ field: 'status', code: 'invalid', message: 'status must be active or suspended.' }]);
      const list = await view.command('merchant.list', {
        limit: PAGE_SIZE,
        ...(search !== '' && { search }),
        ...(status !== '' && { status }),
        ...(after !== '' && { starting_after: after }),
      });
      return view.render(MERCHANTS, merchantsPage(viewer, { search, status, after }, list));
    }),
  );

  router.get(
    '/merchants/:id',
    signedIn(deps, 'ops', operators, async (req, viewer) => showMerchant(opsPage(deps, viewer), merchantIdOf(req))),
  );

  /** A change to one merchant: its command's answer shown on the merchant's page, or the service's refusal with its status. */
  const change = (path: string, work: (view: OpsPage, merchantId: string, form: unknown) => Promise<Html>) =>
    router.post(
      `/merchants/:id/${path}`,
      formBody,
      signedIn(deps, 'ops', operators, async (req, viewer) => {
        const view = opsPage(deps, viewer);
        const merchantId = merchantIdOf(req);
        return acting(
          async (message, status) => {
            try {
              return await showMerchant(view, merchantId, message, status);
            } catch (err) {
              // The change is made: its answer (a live key, shown once) reaches the operator even when the merchant cannot be read back now.
              if (message === undefined || status !== undefined) throw err;
              deps.log.warn({ merchantId, err: describeError(err) }, 'merchant not read back after a change');
              return view.render(MERCHANTS, changedMerchantPage(viewer, merchantId, message));
            }
          },
          () => work(view, merchantId, req.body),
          viewer.language,
        );
      }),
    );

  change('approve-kyb', async (view, merchantId) => {
    const approved = await view.command('merchant.approve_kyb', { merchant_id: merchantId });
    return kybApprovedNotice(view.viewer.t, approved.live_secret_key);
  });

  change('suspend', async (view, merchantId) => {
    const done = await view.command('merchant.suspend', { merchant_id: merchantId });
    return notice('ok', view.viewer.t('merchant_now_suspended', { status: done.status }));
  });

  change('reactivate', async (view, merchantId) => {
    const done = await view.command('merchant.reactivate', { merchant_id: merchantId });
    return notice('ok', view.viewer.t('merchant_reactivated', { status: done.status }));
  });

  change('limits', async (view, merchantId, form) => {
    const mode = fieldOf(form, 'mode');
    if (mode !== 'test' && mode !== 'live') throw validationError([{ field: 'mode', code: 'invalid', message: 'mode must be test or live.' }]);
    const budgets = Object.fromEntries(BUDGETS.map((name) => [name, budget(form, name, view.viewer.t)]).filter(([, value]) => value !== undefined)) as Partial<Record<Budget, number>>;
    const set = await view.command('limits.set', { merchant_id: merchantId, mode, ...budgets });
    return notice('ok', view.viewer.t('limits_set', { mode: set.mode, account: String(set.account), create: String(set.create), refund: String(set.refund) }));
  });

  change('fees', async (view, merchantId, form) => {
    const set = await view.command('fees.set', { merchant_id: merchantId, percent: fieldOf(form, 'percent'), fixed: fieldOf(form, 'fixed') });
    return notice('ok', view.viewer.t('fees_set', { fees: `${set.percent} % + ${set.fixed} TND` }));
  });

  change('terminal', async (view, merchantId, form) => {
    // The password goes to the adapter as typed (a secret is never trimmed), and nowhere else.
    const set = await view.command('terminal.set', {
      merchant_id: merchantId,
      mode: 'live',
      user: fieldOf(form, 'user'),
      password: rawFieldOf(form, 'password'),
      active: fieldOf(form, 'active') === 'on',
    });
    return notice('ok', view.viewer.t(set.active ? 'terminal_set_active' : 'terminal_set_inactive', { user: set.user }));
  });
}
