/** What the list of payment links and one link's page both show of a link (D19): its state, price, QR code, page language and Deactivate. */
import type { PaymentLink } from '@gateway/contracts';
import { LANGUAGE_NAMES } from '@gateway/i18n';
import { html, type Html } from '@gateway/runtime';
import { stateOf, type LinkState } from '../../domain/payment-link-state.js';
import { csrfField, type Reader } from '../layout.js';
import { BASE } from '../paths.js';
import type { TextKey, Words } from '../texts/catalogue.js';

export const LINKS = `${BASE}/payment-links`;

const STATE_NAMES: Readonly<Record<LinkState, TextKey>> = { active: 'link_active', inactive: 'link_inactive', expired: 'link_expired', 'used up': 'link_used_up' };

/** The link's state now, as a badge. */
export function stateBadge(t: Words, link: PaymentLink): Html {
  const state = stateOf(link, Date.now());
  return html`<span class="badge" data-field="state" data-state="${state}">${t(STATE_NAMES[state])}</span>`;
}

/** Its fixed price, or "Open amount" with its bounds when it has any. */
export function priceOf(t: Words, link: PaymentLink): Html {
  if (!link.open_amount) return html`<bdi>${link.amount ?? ''} ${link.currency}</bdi>`;
  const bounds = link.amount_min !== null || link.amount_max !== null ? html`<br><bdi class="muted">${link.amount_min ?? '…'} – ${link.amount_max ?? '…'} TND</bdi>` : '';
  return html`${t('open_amount')}${bounds}`;
}

/** Its QR code at `size` pixels, and the links to download it as SVG and PNG. */
export function qrOf(t: Words, link: PaymentLink, size: number): Html {
  return html`<img src="${link.qr_svg_url}" alt="${t('qr_code_of', { url: link.url })}" width="${size}" height="${size}" loading="lazy">
<br><a href="${link.qr_svg_url}" download="${link.id}.svg">${t('download_svg')}</a> · <a href="${link.url}/qr.png" download="${link.id}.png">${t('download_png')}</a>`;
}

/** "Deactivate", for developers and owners, while the link takes payments. */
export function deactivateButton(reader: Reader, developer: boolean, link: PaymentLink): Html {
  if (!developer || !link.active) return html``;
  return html`<form method="post" action="${LINKS}/${link.id}/deactivate" class="inline" data-confirm="${reader.t('deactivate_confirm')}">${csrfField(reader.csrf)}<button type="submit" class="danger">${reader.t('deactivate_button')}</button></form>`;
}

/** The language of the link's page: a language in its own words, or "Automatic" (the buyer's browser's). */
export function localeName(t: Words, locale: string): string {
  return locale === 'fr' || locale === 'en' || locale === 'ar' ? LANGUAGE_NAMES[locale] : t('page_language_automatic');
}
