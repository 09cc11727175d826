/** The operations console's frame (D15): its sections, the operator in the header, and the page shell around a section. */
import type { Html, HtmlValue } from '@gateway/runtime';
import { layout, type Reader } from '../layout.js';
import { OPS } from '../paths.js';
import type { TextKey } from '../texts/catalogue.js';

const SECTIONS: readonly { href: string; label: TextKey }[] = [
  { href: `${OPS}/merchants`, label: 'merchants_section' },
  { href: `${OPS}/manual-refunds`, label: 'manual_refunds_section' },
  { href: `${OPS}/audit-log`, label: 'audit_log_section' },
  { href: `${OPS}/security`, label: 'security_section' },
];

/** The page of section `current` of the console, for the operator `email`, around `body`. */
export function opsLayout(reader: Reader, email: string, current: string, title: string, body: HtmlValue): Html {
  return layout(
    { language: reader.language, t: reader.t, base: OPS, title, frame: { brand: reader.t('operations_console_name'), who: email, csrf: reader.csrf, sections: SECTIONS, current } },
    body,
  );
}
