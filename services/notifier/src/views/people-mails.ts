/**
 * An invitation and a password reset as mails (D20), in the person's
 * language, with the receipts' layout: the one-use link as a button and as
 * text, and until when it works (Tunis time). A merchant's name or an address
 * is header text in a subject and escaped in the HTML.
 */
import { formatTunisDateTime } from '@gateway/i18n';
import { headerText, shownText } from '../domain/header-safety.js';
import type { Invitation, PasswordReset } from '../domain/people-mails.js';
import type { RenderedMail } from '../domain/queued-mail.js';
import { mailTranslator, type MessageKey } from './catalogue/index.js';
import { renderMail } from './mail-layout.js';

const ROLES: Readonly<Record<Invitation['role'], MessageKey>> = { owner: 'role_owner', developer: 'role_developer', viewer: 'role_viewer' };

export function renderInvitation(mail: Invitation): RenderedMail {
  const t = mailTranslator(mail.language);
  const values = { merchant: shownText(mail.merchantName), role: t(ROLES[mail.role]), expires: formatTunisDateTime(mail.expiresAt, mail.language) };
  return renderMail({
    language: mail.language,
    subject: headerText(t('invitation_subject', values), 250),
    paragraphs: [t('greeting'), t('invitation_intro', values)],
    action: { label: t('invitation_action'), url: mail.link },
    after: [t('invitation_expiry', values), t('invitation_ignore')],
    footer: t('footer'),
  });
}

export function renderPasswordReset(mail: PasswordReset): RenderedMail {
  const t = mailTranslator(mail.language);
  const values = { email: headerText(mail.email, 254), expires: formatTunisDateTime(mail.expiresAt, mail.language) };
  return renderMail({
    language: mail.language,
    subject: t('reset_subject'),
    paragraphs: [t('greeting'), t(mail.door === 'ops' ? 'reset_intro_ops' : 'reset_intro_dashboard', values)],
    action: { label: t('reset_action'), url: mail.link },
    after: [t('reset_expiry', values), t('reset_ignore')],
    footer: t('footer'),
  });
}
