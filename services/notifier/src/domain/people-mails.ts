/**
 * The mails to the people of the dashboard and the console (D20): an
 * invitation and a password reset, each carrying its one-use link (the mail's
 * whole purpose), and the notices to a merchant's owners: a webhook endpoint
 * disabled, a pending refund an operator resolved. Same layout as the
 * receipts. A value from elsewhere (a merchant's name, an address, a URL) is
 * header text in a subject and escaped in the HTML; an endpoint's URL is shown
 * without what could be a secret in it (user, password, path, query, fragment).
 */
import { formatAmount, type Language } from '@gateway/i18n';
import { headerText, withoutCardNumbers } from './header-safety.js';
import { renderMail, type RenderedMail } from './mail-layout.js';
import { PEOPLE_MESSAGES } from './people-messages.js';
import { fill } from './receipt-messages.js';
import { tunisDateTime } from './receipts.js';

export type PeopleMailKind = 'invitation' | 'password_reset' | 'endpoint_disabled_notice' | 'refund_resolved_notice';

export interface Invitation {
  language: Language;
  merchantName: string;
  role: 'owner' | 'developer' | 'viewer';
  link: string;
  expiresAt: Date;
}

export interface PasswordReset {
  language: Language;
  door: 'dashboard' | 'ops';
  email: string;
  link: string;
  expiresAt: Date;
}

export interface EndpointDisabled {
  language: Language;
  merchantId: string;
  livemode: boolean;
  endpointId: string;
  url: string;
  disabledAt: Date;
}

export interface RefundResolved {
  language: Language;
  merchantId: string;
  livemode: boolean;
  refundId: string;
  orderNumber: string;
  /** TND, a decimal string. */
  amount: string;
  outcome: 'succeeded' | 'failed';
  at: Date;
}

/** A person mail's language: one of ours, else French (the gateway's first language). */
export function peopleLanguage(language: string | undefined): Language {
  return language === 'en' || language === 'ar' || language === 'fr' ? language : 'fr';
}

/** A merchant's text as a mail shows it: one line, no card number, bounded. */
function shown(value: string, max = 100): string {
  return withoutCardNumbers(headerText(value, max));
}

export function renderInvitation(mail: Invitation): RenderedMail {
  const m = PEOPLE_MESSAGES[mail.language];
  const values = { merchant: shown(mail.merchantName), role: m.roles[mail.role], expires: tunisDateTime(mail.expiresAt, mail.language) };
  return renderMail({
    language: mail.language,
    subject: headerText(fill(m.invitationSubject, values), 250),
    paragraphs: [m.greeting, fill(m.invitationIntro, values)],
    action: { label: m.invitationAction, url: mail.link },
    after: [fill(m.invitationExpiry, values), m.invitationIgnore],
    footer: m.footer,
  });
}

export function renderPasswordReset(mail: PasswordReset): RenderedMail {
  const m = PEOPLE_MESSAGES[mail.language];
  const values = { email: headerText(mail.email, 254), expires: tunisDateTime(mail.expiresAt, mail.language) };
  return renderMail({
    language: mail.language,
    subject: m.resetSubject,
    paragraphs: [m.greeting, fill(mail.door === 'ops' ? m.resetIntroOps : m.resetIntroDashboard, values)],
    action: { label: m.resetAction, url: mail.link },
    after: [fill(m.resetExpiry, values), m.resetIgnore],
    footer: m.footer,
  });
}

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

export function renderEndpointDisabled(mail: EndpointDisabled): RenderedMail {
  const m = PEOPLE_MESSAGES[mail.language];
  return renderMail({
    language: mail.language,
    subject: m.endpointSubject,
    paragraphs: [m.greeting, m.endpointIntro],
    rows: [
      [m.endpoint, headerText(mail.endpointId, 64)],
      [m.address, publicUrl(mail.url)],
      [m.mode, mail.livemode ? m.liveMode : m.testMode],
      [m.account, headerText(mail.merchantId, 64)],
      [m.disabledAt, tunisDateTime(mail.disabledAt, mail.language)],
    ],
    after: [m.endpointAfter],
    footer: m.footer,
  });
}

export function renderRefundResolved(mail: RefundResolved): RenderedMail {
  const m = PEOPLE_MESSAGES[mail.language];
  const values = { refund: headerText(mail.refundId, 64) };
  const succeeded = mail.outcome === 'succeeded';
  return renderMail({
    language: mail.language,
    subject: headerText(fill(succeeded ? m.refundSubjectSucceeded : m.refundSubjectFailed, values), 250),
    paragraphs: [m.greeting, m.refundIntro, succeeded ? m.refundSucceeded : m.refundFailed],
    rows: [
      [m.refund, values.refund],
      [m.orderNumber, headerText(mail.orderNumber, 40)],
      [m.amount, formatAmount(mail.amount, 'TND', mail.language)],
      [m.outcome, succeeded ? m.outcomeSucceeded : m.outcomeFailed],
      [m.mode, mail.livemode ? m.liveMode : m.testMode],
      [m.account, headerText(mail.merchantId, 64)],
      [m.date, tunisDateTime(mail.at, mail.language)],
    ],
    footer: m.footer,
  });
}
