/**
 * Settings (D20): whether buyers of the mode in view get receipts (the
 * notifier's switch), and the merchant's branding, the same in both modes
 * (the checkout's): a logo (PNG or SVG) and an accent colour, shown on the
 * hosted page, the payment link page and the receipts. Owners and developers
 * change them; viewers read. Every rule is the owning service's: the page
 * only carries the form to it, the logo as base64.
 */
import type { NextFunction, Request, Response, Router } from 'express';
import busboy from 'busboy';
import { BRAND_LOGO_MAX_BYTES, type Branding } from '@gateway/contracts';
import { AppError } from '@gateway/problem';
import { html } from '@gateway/runtime';
import { acting, audited, type DoorDeps } from '../door.js';
import { csrfField, notice } from '../layout.js';
import { signedIn } from '../sign-in.js';
import { BASE, can, merchantChange, merchantPage, merchantView, needs, type MerchantPage, type SectionView } from './frame.js';

const SETTINGS = `${BASE}/settings`;

/** The upload form's limits: one file, read up to one byte past the largest logo (so a larger one is known as such), a few small fields. */
const UPLOAD_LIMITS = { files: 1, fileSize: BRAND_LOGO_MAX_BYTES + 1, fields: 5, fieldSize: 1024, parts: 6 } as const;

/** The logo a multipart form carried, as the upload parser leaves it. */
interface Upload {
  contentType: string;
  bytes: Buffer;
  tooLarge: boolean;
}

const uploads = new WeakMap<Request, Upload>();

/**
 * Reads a multipart/form-data body (the logo form only): its fields become
 * the body (so the CSRF check reads `_csrf` as for any form), its file is
 * kept aside. Anything but multipart leaves the body empty: the CSRF check
 * then refuses it. A body that cannot be read is an upload without its file:
 * the page says so, as for any refused form.
 */
function logoUpload(req: Request, _res: Response, next: NextFunction): void {
  if (!req.is('multipart/form-data')) {
    req.body = {};
    next();
    return;
  }
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: req.headers, limits: UPLOAD_LIMITS, defParamCharset: 'utf8' });
  } catch {
    req.body = {};
    next();
    return;
  }
  const fields: Record<string, string> = {};
  let done = false;
  const finish = (failed: boolean) => {
    if (done) return;
    done = true;
    req.body = fields;
    if (failed) {
      req.unpipe(parser);
      req.resume();
      uploads.delete(req);
    }
    next();
  };
  parser.on('field', (name, value) => {
    fields[name] = value;
  });
  parser.on('file', (name, stream, info) => {
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= UPLOAD_LIMITS.fileSize) chunks.push(chunk);
    });
    // A body cut short fails the file too: the form's own error says so; unheard, it would bring the process down.
    stream.on('error', () => finish(true));
    stream.on('end', () => {
      if (name !== 'logo') return;
      uploads.set(req, { contentType: logoType(info.mimeType, info.filename), bytes: Buffer.concat(chunks), tooLarge: (stream as unknown as { truncated?: boolean }).truncated === true || size > BRAND_LOGO_MAX_BYTES });
    });
  });
  parser.on('close', () => finish(false));
  parser.on('error', () => finish(true));
  req.pipe(parser);
}

/** The type a browser gave the file, or the one its name says when the browser gave none of ours: the checkout checks the bytes either way. */
function logoType(mimeType: string, filename: string | undefined): string {
  if (mimeType === 'image/png' || mimeType === 'image/svg+xml') return mimeType;
  const name = (filename ?? '').toLowerCase();
  if (name.endsWith('.png')) return 'image/png';
  if (name.endsWith('.svg')) return 'image/svg+xml';
  return mimeType;
}

function field(body: unknown, name: string): string {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value.trim() : '';
}

/** Where the page shows the logo from: its path when the checkout is on this origin (the dashboard's CSP allows only its own images). */
function previewSource(deps: DoorDeps, logoUrl: string): string | undefined {
  const url = new URL(logoUrl);
  return url.origin === deps.publicOrigin ? url.pathname : undefined;
}

export function brandSettingsRoutes(deps: DoorDeps, router: Router): void {
  const show: SectionView = async (view, _req, message, status) => {
    const { viewer, merchant } = view;
    const { t } = viewer;
    const [receipts, branding] = await Promise.all([
      view.call.command('receipts.settings.get', { merchant_id: merchant.merchant_id, mode: viewer.mode }),
      view.call.command('branding.get', { merchant_id: merchant.merchant_id }),
    ]);
    const editor = can(viewer, 'develop');
    const mode = viewer.mode === 'live' ? t('live_mode') : t('test_mode');
    const preview = branding.logo_url === null ? undefined : previewSource(deps, branding.logo_url);
    const logo =
      branding.logo_url === null
        ? html`<p class="muted">${t('no_logo')}</p>`
        : html`<p>${preview === undefined ? html`<code>${branding.logo_url}</code>` : html`<img class="brand-logo" src="${preview}" alt="${merchant.name}" height="64">`}</p>`;
    return view.render(
      SETTINGS,
      t('settings_section'),
      html`<h1>${t('settings_section')} <span class="badge ${viewer.mode}">${mode}</span></h1>
${message ?? ''}
<section class="card" aria-labelledby="receipts-heading">
<h2 id="receipts-heading">${t('receipts')}</h2>
<p>${t('send_receipts')} (${mode}): <strong data-receipts="${receipts.receipts_enabled ? 'on' : 'off'}">${receipts.receipts_enabled ? t('receipts_on') : t('receipts_off')}</strong></p>
${
  editor
    ? html`<form method="post" action="${SETTINGS}/receipts" class="row">${csrfField(viewer.csrf)}
<input type="hidden" name="receipts_enabled" value="${receipts.receipts_enabled ? 'off' : 'on'}">
<button type="submit"${receipts.receipts_enabled ? html` class="secondary"` : ''}>${receipts.receipts_enabled ? t('turn_receipts_off') : t('turn_receipts_on')}</button></form>`
    : ''
}
<p class="muted">${t('receipts_note')}</p>
</section>
<section class="card" aria-labelledby="brand-heading">
<h2 id="brand-heading">${t('branding')}</h2>
<p class="muted">${t('branding_note')}</p>
<h3>${t('logo')}</h3>
${logo}
${
  editor
    ? html`<form method="post" action="${SETTINGS}/logo" enctype="multipart/form-data" class="row">${csrfField(viewer.csrf)}
<label>${t('logo_file')} <input type="file" name="logo" accept="image/png,image/svg+xml" required></label>
<button type="submit">${t('upload_button')}</button></form>
${
  branding.logo_url === null
    ? ''
    : html`<form method="post" action="${SETTINGS}/logo/remove" class="inline" data-confirm="${t('remove_logo_confirm')}">${csrfField(viewer.csrf)}<button type="submit" class="danger">${t('remove_logo_button')}</button></form>`
}`
    : ''
}
<p class="muted">${t('svg_logo_note')}</p>
<h3>${t('accent_colour')}</h3>
<p>${branding.accent_color === null ? t('no_accent_colour') : html`<code data-accent="${branding.accent_color}">${branding.accent_color}</code>`}</p>
${
  editor
    ? html`<form method="post" action="${SETTINGS}/accent" class="row">${csrfField(viewer.csrf)}
<label>${t('colour')} <input type="color" name="accent_picker" value="${branding.accent_color ?? '#0b5cad'}" aria-describedby="accent-hint"></label>
<label>${t('colour_as_hex')} <input name="accent_color" pattern="#[0-9A-Fa-f]{6}" maxlength="7" size="8" dir="ltr" placeholder="${branding.accent_color ?? '#0b5cad'}"></label>
<button type="submit">${t('save_button')}</button></form>`
    : ''
}
<p class="muted" id="accent-hint">${t('accent_colour_hint')}</p>
</section>`,
      status,
    );
  };

  /** Runs a change of this page for the merchant in view, recorded in the audit log with its outcome. */
  const change = <T>(view: MerchantPage, action: string, detail: Record<string, unknown>, work: () => Promise<T>): Promise<T> =>
    audited(deps, view.viewer, { action, merchantId: view.merchant.merchant_id, target: null, detail }, work);

  router.get('/settings', merchantView(deps, 'read', show));
  router.post(
    '/settings/receipts',
    ...merchantChange(deps, 'develop', show, async (req, view) => {
      const { viewer } = view;
      const wanted = field(req.body, 'receipts_enabled');
      if (wanted !== 'on' && wanted !== 'off') throw new AppError('validation-error', viewer.t('choose_on_or_off'));
      const enabled = wanted === 'on';
      const set = await change(view, 'receipts.settings.set', { mode: viewer.mode, receipts_enabled: enabled }, () =>
        view.call.command('receipts.settings.set', { merchant_id: view.merchant.merchant_id, mode: viewer.mode, receipts_enabled: enabled }),
      );
      return notice('ok', set.receipts_enabled ? viewer.t('receipts_now_on') : viewer.t('receipts_now_off'));
    }),
  );
  router.post(
    '/settings/accent',
    ...merchantChange(deps, 'develop', show, async (req, view) => {
      const { viewer } = view;
      // The text box, left empty on the page, wins when someone typed in it; otherwise the colour picker's value.
      const accent = field(req.body, 'accent_color') || field(req.body, 'accent_picker');
      const set: Branding = await change(view, 'branding.set', { accent_color: accent }, () => view.call.command('branding.set', { merchant_id: view.merchant.merchant_id, accent_color: accent }));
      return notice('ok', viewer.t('accent_colour_saved', { color: set.accent_color ?? '' }));
    }),
  );
  router.post(
    '/settings/logo/remove',
    ...merchantChange(deps, 'develop', show, async (_req, view) => {
      await change(view, 'branding.remove_logo', {}, () => view.call.command('branding.remove_logo', { merchant_id: view.merchant.merchant_id }));
      return notice('ok', view.viewer.t('logo_removed'));
    }),
  );
  router.post(
    '/settings/logo',
    logoUpload,
    signedIn(deps, 'dashboard', needs('develop'), async (req, viewer) => {
      const view = await merchantPage(deps, viewer);
      const upload = uploads.get(req);
      return acting(
        (message, status) => show(view, req, message, status),
        async () => {
          if (upload === undefined || upload.bytes.length === 0) throw new AppError('validation-error', viewer.t('choose_logo_file'));
          // The upload was read one byte past the limit: a larger logo is refused here, before the checkout would refuse it too.
          if (upload.tooLarge) throw new AppError('validation-error', viewer.t('logo_too_large'));
          const { contentType, bytes } = upload;
          await change(view, 'branding.set', { logo: { content_type: contentType, bytes: bytes.length } }, () =>
            view.call.command('branding.set', { merchant_id: view.merchant.merchant_id, logo: { content_type: contentType, data_base64: bytes.toString('base64') } }),
          );
          return notice('ok', viewer.t('logo_saved'));
        },
        viewer.language,
      );
    }),
  );
}
