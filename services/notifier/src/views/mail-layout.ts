/**
 * The one layout of every notifier mail (D20): a plain-text part and an HTML
 * part that say the same, paragraphs, a table of label and value, a link to
 * follow, and a footer; the HTML right to left in Arabic. Every value in the
 * HTML is escaped; the caller gives text only. A test-mode mail (D29) has
 * `[TEST]` before its subject and says so before anything else.
 */
import { directionOf, type Language } from '@gateway/i18n';
import { html, joinHtml, type Html } from '@gateway/runtime';
import type { RenderedMail } from '../domain/queued-mail.js';

export interface MailContent {
  language: Language;
  subject: string;
  /** A test-mode mail's notice (that no money moved): the subject then starts with `[TEST]`, the body with the notice. */
  testNotice?: string;
  /** Before the table: a greeting, what happened. */
  paragraphs: readonly string[];
  /** Label and value, in reading order. */
  rows?: ReadonlyArray<readonly [string, string]>;
  /** The link the mail is for, with the words of its button. */
  action?: { label: string; url: string };
  /** After the table and the link. */
  after?: readonly string[];
  footer: string;
  /** The merchant's branding (D20), on receipts: its logo above (many mail clients show no SVG) and its accent colour as a rule. */
  brand?: MailBrand;
}

/** A merchant's logo (an absolute URL, its alternative text the merchant's name) and accent colour (#rrggbb), either absent. */
interface MailBrand {
  logo?: { url: string; alt: string };
  accentColor?: string;
}

/** The brand's lines at the top of the HTML: only a well-formed colour and an http(s) URL are ever written. */
function brandParts(brand: MailBrand | undefined): Html[] {
  const parts: Html[] = [];
  if (brand?.accentColor !== undefined && /^#[0-9a-fA-F]{6}$/.test(brand.accentColor)) {
    parts.push(html`<hr style="border:0;border-top:4px solid ${brand.accentColor};margin:0 0 16px">`);
  }
  if (brand?.logo !== undefined && /^https?:\/\//.test(brand.logo.url)) {
    parts.push(html`<p><img src="${brand.logo.url}" alt="${brand.logo.alt}" height="48" style="display:block;height:48px;width:auto;max-width:200px;border:0"></p>`);
  }
  return parts;
}

/** The mark a test-mode mail's subject starts with, in every language: mail filters and readers look for it. */
const TEST_MARK = '[TEST]';

/** `content` as a mail. */
export function renderMail(content: MailContent): RenderedMail {
  const { language, testNotice, paragraphs, rows = [], action, after = [], footer } = content;
  const subject = testNotice === undefined ? content.subject : `${TEST_MARK} ${content.subject}`;
  const text = [
    ...(testNotice === undefined ? [] : [testNotice, '']),
    ...paragraphs.flatMap((p) => [p, '']),
    ...(rows.length > 0 ? [...rows.map(([label, value]) => `${label}: ${value}`), ''] : []),
    ...(action ? [`${action.label}:`, action.url, ''] : []),
    ...after.flatMap((p) => [p, '']),
    footer,
    '',
  ].join('\n');
  const dir = directionOf(language);
  const align = dir === 'rtl' ? 'right' : 'left';
  const parts = [
    ...(testNotice === undefined ? [] : [html`<p style="padding:8px 12px;background:#fff4ce;border:1px solid #e0b100;font-weight:bold">${testNotice}</p>`]),
    ...brandParts(content.brand),
    ...paragraphs.map((p) => html`<p>${p}</p>`),
    ...(rows.length > 0
      ? [
          html`<table role="presentation" cellpadding="6" style="border-collapse:collapse">
${joinHtml(
  rows.map(([label, value]) => html`<tr><th scope="row" style="text-align:${align};font-weight:normal;color:#52606d">${label}</th><td dir="auto"><strong>${value}</strong></td></tr>`),
  '\n',
)}
</table>`,
        ]
      : []),
    ...(action
      ? [
          html`<p><a href="${action.url}" style="display:inline-block;padding:10px 18px;background:#1f6feb;color:#ffffff;text-decoration:none;border-radius:4px">${action.label}</a></p>
<p dir="ltr" style="color:#52606d;font-size:12px;word-break:break-all">${action.url}</p>`,
        ]
      : []),
    ...after.map((p) => html`<p>${p}</p>`),
    html`<p style="color:#7b8794;font-size:12px">${footer}</p>`,
  ];
  const body = html`<!doctype html>
<html lang="${language}" dir="${dir}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${subject}</title></head>
<body dir="${dir}" style="font-family:Arial,Helvetica,sans-serif;color:#1f2933;text-align:${align}">
${joinHtml(parts, '\n')}
</body>
</html>
`;
  return { subject, text, html: body.toString() };
}
