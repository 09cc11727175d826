/** The merchant dashboard's frame (D14): its sections, the person and their role in the header, and the page shell around a section. */
import type { DashboardRole } from '@gateway/contracts';
import type { Html, HtmlValue } from '@gateway/runtime';
import type { Permission } from '../../domain/roles.js';
import { layout, type Reader } from '../layout.js';
import { BASE } from '../paths.js';
import type { TextKey, Words } from '../texts/catalogue.js';

/** The dashboard's sections, each shown to whom may open it. */
export const MERCHANT_SECTIONS: readonly { href: string; label: TextKey; permission: Permission }[] = [
  { href: `${BASE}/home`, label: 'home_section', permission: 'read' },
  { href: `${BASE}/payments`, label: 'payments_section', permission: 'read' },
  { href: `${BASE}/payment-links`, label: 'payment_links_section', permission: 'read' },
  { href: `${BASE}/customers`, label: 'customers_section', permission: 'read' },
  { href: `${BASE}/reports`, label: 'reports_section', permission: 'read' },
  { href: `${BASE}/api-keys`, label: 'api_keys_section', permission: 'read' },
  { href: `${BASE}/webhooks`, label: 'webhooks_section', permission: 'read' },
  { href: `${BASE}/exchange-rates`, label: 'exchange_rates_section', permission: 'read' },
  { href: `${BASE}/settings`, label: 'settings_section', permission: 'read' },
  { href: `${BASE}/team`, label: 'team_section', permission: 'team' },
  { href: `${BASE}/audit-log`, label: 'audit_log_section', permission: 'audit' },
  { href: `${BASE}/security`, label: 'security_section', permission: 'read' },
];

const ROLE_NAMES: Readonly<Record<DashboardRole, TextKey>> = { owner: 'role_owner', developer: 'role_developer', viewer: 'role_viewer' };

/** A role as people read it in the reader's language (the form values stay the role's code). */
export function roleName(t: Words, role: DashboardRole | null): string {
  return role === null ? t('role_none') : t(ROLE_NAMES[role]);
}

/** What the frame shows around a merchant's section. */
interface MerchantFrame {
  /** The merchant's name. */
  brand: string;
  email: string;
  role: DashboardRole | null;
  /** The sections the person may open. */
  sections: readonly { href: string; label: TextKey }[];
  /** Whether live payments still wait for the business's verification. */
  livePending: boolean;
}

/** The page of section `current` of the merchant's dashboard: the frame, with its test/live switch, around `body`. */
export function merchantLayout(reader: Reader, frame: MerchantFrame, current: string, title: string, body: HtmlValue): Html {
  return layout(
    {
      language: reader.language,
      t: reader.t,
      base: BASE,
      title,
      frame: {
        brand: frame.brand,
        who: `${frame.email} (${roleName(reader.t, frame.role)})`,
        csrf: reader.csrf,
        sections: frame.sections,
        current,
        mode: { mode: reader.mode, livePending: frame.livePending },
      },
    },
    body,
  );
}
