/**
 * The owners' notices as mails (D20), in the owner's language, with the
 * receipts' layout: what happened, a table of what it concerns, and what to
 * do. An endpoint's URL is shown without what could be a secret in it (user,
 * password, path, query, fragment). A test-mode notice is marked `[TEST]`.
 */
import { formatAmount, formatTunisDateTime } from '@gateway/i18n';
import { headerText } from '../domain/header-safety.js';
import type { EndpointDisabled, RefundResolved } from '../domain/owner-notices.js';
import type { RenderedMail } from '../domain/queued-mail.js';
import { mailTranslator, type MailTranslate } from './catalogue/index.js';
import { renderMail } from './mail-layout.js';

/**
 * An endpoint's URL as a notice shows it: scheme, host and port only (a hook's
 * path often holds its secret); the endpoint's id and the Webhooks page tell which.
 */
export function publicUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return headerText(`${parsed.protocol}//${parsed.host}`, 300);
  } catch {
    return '';
  }
}

function modeOf(t: MailTranslate, livemode: boolean): string {
  return t(livemode ? 'notice_mode_live' : 'notice_mode_test');
}

/** A test-mode notice is marked as one (D29), like a test receipt. */
function testNotice(t: MailTranslate, livemode: boolean): { testNotice?: string } {
  return livemode ? {} : { testNotice: t('notice_test_notice') };
}

export function renderEndpointDisabled(mail: EndpointDisabled): RenderedMail {
  const t = mailTranslator(mail.language);
  return renderMail({
    language: mail.language,
    subject: t('endpoint_disabled_subject'),
    ...testNotice(t, mail.livemode),
    paragraphs: [t('greeting'), t('endpoint_disabled_intro')],
    rows: [
      [t('notice_endpoint'), headerText(mail.endpointId, 64)],
      [t('notice_address'), publicUrl(mail.url)],
      [t('notice_mode'), modeOf(t, mail.livemode)],
      [t('notice_account'), headerText(mail.merchantId, 64)],
      [t('notice_disabled_at'), formatTunisDateTime(mail.disabledAt, mail.language)],
    ],
    after: [t('endpoint_disabled_after')],
    footer: t('footer'),
  });
}

export function renderRefundResolved(mail: RefundResolved): RenderedMail {
  const t = mailTranslator(mail.language);
  const values = { refund: headerText(mail.refundId, 64) };
  const succeeded = mail.outcome === 'succeeded';
  return renderMail({
    language: mail.language,
    subject: headerText(t(succeeded ? 'refund_resolved_subject_succeeded' : 'refund_resolved_subject_failed', values), 250),
    ...testNotice(t, mail.livemode),
    paragraphs: [t('greeting'), t('refund_resolved_intro'), t(succeeded ? 'refund_resolved_succeeded' : 'refund_resolved_failed')],
    rows: [
      [t('notice_refund'), values.refund],
      [t('notice_order_number'), headerText(mail.orderNumber, 40)],
      [t('notice_amount'), formatAmount(mail.amount, 'TND', mail.language)],
      [t('notice_outcome'), t(succeeded ? 'notice_outcome_succeeded' : 'notice_outcome_failed')],
      [t('notice_mode'), modeOf(t, mail.livemode)],
      [t('notice_account'), headerText(mail.merchantId, 64)],
      [t('notice_date'), formatTunisDateTime(mail.at, mail.language)],
    ],
    footer: t('footer'),
  });
}
