/**
 * What every page of the merchant dashboard shares (D14): who may open it
 * (the roles), the merchant in view, the calls for the person, the frame
 * around the section, and the handlers of a section's page and of its changes.
 */
import type { MerchantDetail } from '@gateway/contracts';
import type { Request } from 'express';
import type { Html } from '@gateway/runtime';
import { apiChange } from '../../domain/api-change.js';
import { may, type Permission } from '../../domain/roles.js';
import type { PageView } from '../../views/layout.js';
import { MERCHANT_SECTIONS, merchantLayout, roleName } from '../../views/merchant/merchant-frame.js';
import { Caller } from '../caller.js';
import { acting, type DoorDeps, type Outcome, type Viewer } from '../door.js';
import { formBody, signedIn } from '../signed-in.js';

/** Whether the signed-in person's role grants `permission`. */
export function can(viewer: Viewer, permission: Permission): boolean {
  return may(viewer.person.role, permission);
}

/** A guard refusing anyone without `permission`. */
export function needs(permission: Permission) {
  return {
    allow: (viewer: Viewer) => (can(viewer, permission) ? undefined : viewer.t('role_may_not', { role: roleName(viewer.t, viewer.person.role) })),
  };
}

/** One signed-in merchant page's means: the merchant, the calls, and its frame. */
export interface MerchantPage {
  viewer: Viewer;
  merchant: MerchantDetail;
  call: Caller;
  render(section: string, page: PageView, status?: number): Outcome;
}

/** The means of a merchant page for the signed-in `viewer`: the merchant in view is read first (merchant.get). */
export async function merchantPage(deps: DoorDeps, viewer: Viewer): Promise<MerchantPage> {
  const call = new Caller(deps.rpc, viewer);
  const merchant = await call.command('merchant.get', { merchant_id: viewer.person.merchant_id ?? '' });
  const frame = {
    brand: merchant.name,
    email: viewer.person.email,
    role: viewer.person.role,
    sections: MERCHANT_SECTIONS.filter((s) => can(viewer, s.permission)),
    livePending: merchant.kyb_approved_at === null,
  };
  return {
    viewer,
    merchant,
    call,
    render: (section, page, status) => ({ page: merchantLayout(viewer, frame, section, page.title, page.body), ...(status !== undefined && { status }) }),
  };
}

/** A section's page for the merchant in view, with the outcome of a change when there is one. */
export type SectionView = (view: MerchantPage, req: Request, message?: Html, status?: number) => Promise<Outcome>;

/**
 * The handlers of a change made by a form of a merchant page: the body read,
 * a signed-in person with `permission`, the merchant in view, `change` run,
 * and its section shown again with the outcome or the owning service's refusal.
 */
export function merchantChange(deps: DoorDeps, permission: Permission, show: SectionView, change: (req: Request, view: MerchantPage) => Promise<Html>) {
  return [
    formBody,
    signedIn(deps, 'dashboard', needs(permission), async (req, viewer) => {
      const view = await merchantPage(deps, viewer);
      return acting(
        (message, status) => show(view, req, message, status),
        () => change(req, view),
        viewer.language,
      );
    }),
  ] as const;
}

/** The handler of a merchant page that only shows its section: a signed-in person with `permission`, the merchant in view. */
export function merchantView(deps: DoorDeps, permission: Permission, show: SectionView) {
  return signedIn(deps, 'dashboard', needs(permission), async (req, viewer) => show(await merchantPage(deps, viewer), req));
}

/** Runs an API change of the merchant in view as the API would, audited with its outcome (D14). */
export function asTheApi<T>(deps: DoorDeps, view: MerchantPage, change: { action: string; target: string | null; detail: Record<string, unknown> }, work: () => Promise<T>): Promise<T> {
  return apiChange(deps.accounts, view.viewer.doer, view.merchant, view.viewer.mode === 'live', change, work);
}
