/**
 * One labelled input of a buyer's form, as the card page and the payment link page
 * write it: its hint and its error tied to it (aria-describedby), an error
 * marked aria-invalid and announced with the page's "Error:" prefix.
 */
import { html, joinHtml, type Html } from '@gateway/runtime';
import type { PageTranslate } from './catalogue/index.js';

export interface FormField {
  name: string;
  type: 'text' | 'email' | 'tel';
  /** The label, in the page's language. */
  label: string;
  /** Attributes beyond id, name and type: constants of the page's own, written as they are. */
  attributes: Html;
  hint?: string;
  error?: string;
  /** What the buyer typed, put back; nothing for an empty one. */
  value?: string;
}

/** The field's lines, its label, hint and error in the words of `t`. */
export function renderFormField(t: PageTranslate, field: FormField): Html {
  const { name, hint, error, value } = field;
  const hintId = `${name}-hint`;
  const errorId = `${name}-error`;
  const describedBy = [hint === undefined ? undefined : hintId, error === undefined ? undefined : errorId].filter((id) => id !== undefined);
  const attributes = [
    html`id="${name}"`,
    html`name="${name}"`,
    html`type="${field.type}"`,
    field.attributes,
    html`required`,
    describedBy.length > 0 ? html`aria-describedby="${describedBy.join(' ')}"` : undefined,
    error === undefined ? undefined : html`aria-invalid="true"`,
    value === undefined || value === '' ? undefined : html`value="${value}"`,
  ].filter((attribute) => attribute !== undefined);
  const lines = [html`<div class="field${error === undefined ? '' : ' field-invalid'}">`, html`<label for="${name}">${field.label}</label>`];
  if (hint !== undefined) lines.push(html`<p class="hint" id="${hintId}">${hint}</p>`);
  if (error !== undefined) lines.push(html`<p class="field-error" id="${errorId}"><span class="visually-hidden">${t('error_prefix')}</span>${error}</p>`);
  lines.push(html`<input ${joinHtml(attributes, ' ')}>`, html`</div>`);
  return joinHtml(lines, '\n');
}
