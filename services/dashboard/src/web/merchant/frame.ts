/** The merchant dashboard's frame: sections, roles (D14), the merchant in view, and the page shell. */
import type { DashboardRole, MerchantDetail } from '@gateway/contracts';
import type { Request } from 'express';
import type { Html, HtmlValue } from '@gateway/runtime';
import { acting, Caller, type DoorDeps, type Outcome, type Viewer } from '../door.js';
import type { TextKey } from '../../views/texts/catalogue.js';
import { layout } from '../layout.js';
import { formBody, signedIn } from '../sign-in.js';


export const BASE = '/dashboard';

/** What each role may do (D14): owner everything and the team; developer keys, webhooks, rates, payments, refunds; viewer reads. */
export type Permission = 'read' | 'develop' | 'team' | 'audit';
const GRANTS: Readonly<Record<DashboardRole, readonly Permission[]>> = {
  owner: ['read', 'develop', 'team', 'audit'],
  developer: ['read', 'develop'],
  viewer: ['read'],
};

export function can(viewer: Viewer, permission: Permission): boolean {
  return viewer.person.role !== null && GRANTS[viewer.person.role].includes(permission);
}

/** A guard refusing anyone without `permission`. */
export function needs(permission: Permission) {
  return {
    allow: (viewer: Viewer) => (can(viewer, permission) ? undefined : viewer.t('role_may_not', { role: roleName(viewer, viewer.person.role) })),
  };
}

/** A role as people read it in the viewer's language (the form values stay the role's code). */
export function roleName(viewer: Pick<Viewer, 't'>, role: DashboardRole | null): string {
  return role === null ? viewer.t('role_none') : viewer.t(ROLE_NAMES[role]);
}
const ROLE_NAMES: Readonly<Record<DashboardRole, TextKey>> = { owner: 'role_owner', developer: 'role_developer', viewer: 'role_viewer' };

const SECTIONS = [
  { href: `${BASE}/home`, label: 'home_section', permission: 'read' },
  { href: `${BASE}/payments`, label: 'payments_section', permission: 'read' },
  { href: `${BASE}/payment-links`, label: 'payment_links_section', permission: 'read' },
  { href: `${BASE}/reports`, label: 'reports_section', permission: 'read' },
  { href: `${BASE}/api-keys`, label: 'api_keys_section', permission: 'read' },
  { href: `${BASE}/webhooks`, label: 'webhooks_section', permission: 'read' },
  { href: `${BASE}/exchange-rates`, label: 'exchange_rates_section', permission: 'read' },
  { href: `${BASE}/settings`, label: 'settings_section', permission: 'read' },
  { href: `${BASE}/team`, label: 'team_section', permission: 'team' },
  { href: `${BASE}/audit-log`, label: 'audit_log_section', permission: 'audit' },
  { href: `${BASE}/security`, label: 'security_section', permission: 'read' },
] as const;

/** One signed-in merchant page's means: the merchant, the calls, and its shell. */
export interface MerchantPage {
  viewer: Viewer;
  merchant: MerchantDetail;
  call: Caller;
  render(section: string, title: string, body: HtmlValue, status?: number): Outcome;
}

export async function merchantPage(deps: DoorDeps, viewer: Viewer): Promise<MerchantPage> {
  const call = new Caller(deps.rpc, viewer);
  const merchant = await call.command('merchant.get', { merchant_id: viewer.person.merchant_id ?? '' });
  const shell = (section: string, title: string, body: HtmlValue): Html =>
    layout(
      {
        language: viewer.language,
        t: viewer.t,
        base: BASE,
        title,
        frame: {
          brand: merchant.name,
          who: `${viewer.person.email} (${roleName(viewer, viewer.person.role)})`,
          csrf: viewer.csrf,
          sections: SECTIONS.filter((s) => can(viewer, s.permission)),
          current: section,
          mode: { mode: viewer.mode, livePending: merchant.kyb_approved_at === null },
        },
      },
      body,
    );
  return { viewer, merchant, call, render: (section, title, body, status) => ({ page: shell(section, title, body), ...(status !== undefined && { status }) }) };
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
