/**
 * A merchant's branding (D20): an accent colour and a logo, shown on the
 * hosted page, the payment link page and the receipts. Set from the
 * dashboard's Settings page for the signed-in user's own merchant; a refused
 * change changes nothing. The accent colour is a #RRGGBB dark enough for
 * white text on it and for links on white (contrast at least 4.5:1, WCAG AA):
 * a colour too light is refused rather than shown unreadable.
 */
import { Buffer } from 'node:buffer';
import type { Branding, CommandReply, CommandRequest } from '@gateway/contracts';
import type { Logger } from '@gateway/observability';
import { validationError } from '@gateway/problem';
import type { BrandingRepository, BrandingRow } from '../db/branding.repository.js';
import { checkLogo, LogoRefused } from './brand-logo.js';

export interface BrandingDeps {
  brands: BrandingRepository;
  /** The checkout's public origin: logo URLs are absolute on it (receipts need them so). */
  publicBaseUrl: string;
  clock: () => Date;
  log: Logger;
}

/** Where a logo is served: its content's address, so a new logo is a new URL. */
export const BRAND_PATH = '/checkout/brand';

/** The least contrast of the accent colour against white (WCAG AA for text). */
const MIN_ACCENT_CONTRAST = 4.5;

const HEX_COLOR = /^#[0-9a-fA-F]{6}$/;

/** What the pages need of a merchant's branding: the logo's path and the accent colour, either absent. */
export interface BrandView {
  logoPath?: string;
  accentColor?: string;
}

function logoPath(row: Pick<BrandingRow, 'logo_sha256' | 'logo_type'>): string | undefined {
  if (row.logo_sha256 === null || row.logo_type === null) return undefined;
  return `${BRAND_PATH}/${row.logo_sha256}.${row.logo_type === 'image/png' ? 'png' : 'svg'}`;
}

function brandingOf(deps: Pick<BrandingDeps, 'publicBaseUrl'>, merchantId: string, row: BrandingRow | undefined): Branding {
  const path = row ? logoPath(row) : undefined;
  return {
    merchant_id: merchantId,
    accent_color: row?.accent_color ?? null,
    logo_url: path === undefined ? null : new URL(path, deps.publicBaseUrl).toString(),
    logo_type: path === undefined ? null : (row?.logo_type ?? null),
  };
}

/** The pages' view of a merchant's branding; none when the merchant set none (or the session comes from an older service without its merchant). */
export async function brandView(brands: BrandingRepository, merchantId: string | undefined): Promise<BrandView> {
  if (merchantId === undefined) return {};
  const row = await brands.find(merchantId);
  if (!row) return {};
  const path = logoPath(row);
  return { ...(path !== undefined && { logoPath: path }), ...(row.accent_color !== null && { accentColor: row.accent_color }) };
}

export async function getBranding(deps: BrandingDeps, command: CommandRequest<'branding.get'>): Promise<CommandReply<'branding.get'>> {
  return brandingOf(deps, command.merchant_id, await deps.brands.find(command.merchant_id));
}

/** Sets the accent colour and/or the logo the command names; either refused, nothing is changed. */
export async function setBranding(deps: BrandingDeps, command: CommandRequest<'branding.set'>): Promise<CommandReply<'branding.set'>> {
  const accentColor = command.accent_color === undefined ? undefined : checkAccentColor(command.accent_color);
  let logo: { type: 'image/png' | 'image/svg+xml'; bytes: Buffer; sha256: string } | undefined;
  if (command.logo !== undefined) {
    const bytes = decodeBase64(command.logo.data_base64);
    try {
      const checked = checkLogo(command.logo.content_type, bytes);
      logo = { type: checked.type, bytes: checked.bytes, sha256: checked.sha256 };
    } catch (err) {
      if (!(err instanceof LogoRefused)) throw err;
      deps.log.info({ merchantId: command.merchant_id, reason: err.message, found: err.found }, 'logo refused');
      throw validationError([{ field: 'logo', code: 'invalid', message: err.message }]);
    }
  }
  if (accentColor === undefined && logo === undefined) throw validationError([{ field: 'accent_color', code: 'required', message: 'Give an accent colour or a logo.' }]);
  const row = await deps.brands.change(command.merchant_id, { ...(accentColor !== undefined && { accentColor }), ...(logo !== undefined && { logo }) }, deps.clock());
  return brandingOf(deps, command.merchant_id, row);
}

export async function removeLogo(deps: BrandingDeps, command: CommandRequest<'branding.remove_logo'>): Promise<CommandReply<'branding.remove_logo'>> {
  const row = await deps.brands.change(command.merchant_id, { logo: null }, deps.clock());
  return brandingOf(deps, command.merchant_id, row);
}

/** `value` as a stored accent colour (#rrggbb, lower case), or a validation error. */
export function checkAccentColor(value: string): string {
  const color = value.trim();
  if (!HEX_COLOR.test(color)) throw validationError([{ field: 'accent_color', code: 'invalid', message: 'The accent colour must be #RRGGBB (six hexadecimal digits).' }]);
  if (contrastWithWhite(color) < MIN_ACCENT_CONTRAST) {
    throw validationError([{ field: 'accent_color', code: 'too_light', message: 'The accent colour is too light: white text on it and links on white would be hard to read (contrast under 4.5:1).' }]);
  }
  return color.toLowerCase();
}

/** The WCAG contrast ratio of #rrggbb against white. */
export function contrastWithWhite(color: string): number {
  return 1.05 / (relativeLuminance(color) + 0.05);
}

function relativeLuminance(color: string): number {
  const channel = (offset: number): number => {
    const value = parseInt(color.slice(offset, offset + 2), 16) / 255;
    return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** The colour of a hovered button: the accent a fifth darker. */
export function darker(color: string): string {
  const part = (offset: number) => Math.round(parseInt(color.slice(offset, offset + 2), 16) * 0.8).toString(16).padStart(2, '0');
  return `#${part(1)}${part(3)}${part(5)}`;
}

/** Strict base64 (no other characters, right padding); anything else is a refused logo. */
function decodeBase64(data: string): Buffer {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(data) || data.length % 4 !== 0) throw validationError([{ field: 'logo', code: 'invalid', message: 'The logo could not be read.' }]);
  return Buffer.from(data, 'base64');
}
