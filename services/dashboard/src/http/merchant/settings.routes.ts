/**
 * Settings (D20): whether buyers of the mode in view get receipts (the
 * notifier's switch), the merchant's branding, the same in both modes
 * (the checkout's): a logo and an accent colour, and its live Flouci keys
 * (D26, the acquirer-adapter's; owners only). Every rule is the owning
 * service's: the page only carries the form to it, the logo as base64; each
 * change is recorded in the audit log with its outcome, never a private key.
 */
import { flouciKeyScope } from '@gateway/contracts';
import type { Router } from 'express';
import type { Branding } from '@gateway/contracts';
import { AppError } from '@gateway/problem';
import { audited } from '../../domain/audit-log.js';
import { notice } from '../../views/layout.js';
import { SETTINGS, settingsPage } from '../../views/merchant/settings.page.js';
import { acting, type DoorDeps } from '../door.js';
import { fieldOf } from '../form-fields.js';
import { signedIn } from '../signed-in.js';
import { logoUpload, uploadOf } from './logo-upload.js';
import { can, merchantChange, merchantPage, merchantView, needs, type MerchantPage, type SectionView } from './merchant-page.js';

/** Where the page shows the logo from: its path when the checkout is on this origin (the dashboard's CSP allows only its own images). */
function previewSource(deps: DoorDeps, logoUrl: string): string | undefined {
  const url = new URL(logoUrl);
  return url.origin === deps.publicOrigin ? url.pathname : undefined;
}

/** The Settings routes: the page, receipts, the accent colour, the logo and the Flouci keys. */
export function settingsRoutes(deps: DoorDeps, router: Router): void {
  const show: SectionView = async (view, _req, message, status) => {
    const { viewer, merchant } = view;
    const [receipts, branding, wallet] = await Promise.all([
      view.call.command('receipts.settings.get', { merchant_id: merchant.merchant_id, mode: viewer.mode }),
      view.call.command('branding.get', { merchant_id: merchant.merchant_id }),
      // Test mode always uses the sandbox's Flouci: only live mode has keys to show.
      viewer.mode === 'live' ? view.call.command('wallet.settings.get', { merchant_id: merchant.merchant_id }) : undefined,
    ]);
    const logoPreview = branding.logo_url === null ? undefined : previewSource(deps, branding.logo_url);
    const access = { editor: can(viewer, 'develop'), owner: can(viewer, 'wallet') };
    const page = settingsPage(viewer, { receipts, branding, merchantName: merchant.name, ...access, ...(wallet && { flouci: wallet.flouci }), ...(logoPreview !== undefined && { logoPreview }) }, message);
    return view.render(SETTINGS, page, status);
  };

  /** Runs a change of this page for the merchant in view, recorded in the audit log with its outcome. */
  const change = <T>(view: MerchantPage, action: string, detail: Record<string, unknown>, work: () => Promise<T>): Promise<T> =>
    audited(deps.accounts, view.viewer.doer, { action, merchantId: view.merchant.merchant_id, target: null, detail }, work);

  router.get('/settings', merchantView(deps, 'read', show));
  router.post(
    '/settings/receipts',
    ...merchantChange(deps, 'develop', show, async (req, view) => {
      const { viewer } = view;
      const wanted = fieldOf(req.body, 'receipts_enabled');
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
      const accent = fieldOf(req.body, 'accent_color') || fieldOf(req.body, 'accent_picker');
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
    '/settings/flouci',
    ...merchantChange(deps, 'wallet', show, async (req, view) => {
      // Trimmed: a key holds no space (the adapter checks), so any around it came with the paste.
      const merchantId = view.merchant.merchant_id;
      // The private key crosses the broker sealed for the adapter alone, bound to this merchant's keys (D26).
      const keys = { public_key: fieldOf(req.body, 'public_key'), private_key_sealed: deps.sealer.sealSecret(fieldOf(req.body, 'private_key'), flouciKeyScope(merchantId)) };
      // The audit log keeps the public key, never the private one.
      await change(view, 'wallet.settings.set', { flouci: { public_key: keys.public_key } }, () =>
        view.call.command('wallet.settings.set', { merchant_id: merchantId, flouci: keys }),
      );
      return notice('ok', view.viewer.t('flouci_keys_saved'));
    }),
  );
  router.post(
    '/settings/flouci/remove',
    ...merchantChange(deps, 'wallet', show, async (_req, view) => {
      await change(view, 'wallet.settings.set', { flouci: null }, () => view.call.command('wallet.settings.set', { merchant_id: view.merchant.merchant_id, flouci: null }));
      return notice('ok', view.viewer.t('flouci_keys_removed'));
    }),
  );
  router.post(
    '/settings/logo',
    logoUpload,
    signedIn(deps, 'dashboard', needs('develop'), async (req, viewer) => {
      const view = await merchantPage(deps, viewer);
      const upload = uploadOf(req);
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
