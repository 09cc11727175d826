/** A mail as the mail queue takes it: its words, rendered once in its reader's language, and what every notifier mail carries besides. */
import type { NewMail } from '../db/mail-queue.repository.js';

/** A mail as a subject and two bodies that say the same: plain text and HTML. */
export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/** Headers every notifier mail carries (RFC 3834: no auto-replies to it). */
const MAIL_HEADERS: Readonly<Record<string, string>> = { 'Auto-Submitted': 'auto-generated' };

/** `rendered`, about what `about` names, as the mail queue keeps it. */
export function queuedMail(about: Omit<NewMail, 'subject' | 'text' | 'html' | 'headers'>, rendered: RenderedMail): NewMail {
  return { ...about, subject: rendered.subject, text: rendered.text, html: rendered.html, headers: MAIL_HEADERS };
}
