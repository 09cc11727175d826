/** The pages a request becomes when no page answers it: not found, a refusal, a failure, a form that could not be read. */
import type { Language } from '@gateway/i18n';
import type { AppError } from '@gateway/problem';
import { html, type Html, type HtmlValue } from '@gateway/runtime';
import { barePage, notice } from './layout.js';
import { wordsIn, type Words } from './texts/catalogue.js';

/** "Not found", with a way back to the door's start. */
export function notFoundPage(language: Language, base: string): Html {
  const t = wordsIn(language);
  return barePage(language, base, t('not_found_title'), html`<h1>${t('not_found_title')}</h1><p>${t('no_such_page')} <a href="${base}/">${t('start_again_link')}</a>.</p>`);
}

/** "Something went wrong", and what: `what` gives its words in the page's language. */
export function failurePage(language: Language, base: string, what: (t: Words) => HtmlValue): Html {
  const t = wordsIn(language);
  return barePage(language, base, t('something_went_wrong'), html`<h1>${t('something_went_wrong')}</h1>${notice('error', what(t))}`);
}

/** A refusal on a failure page: the problem's detail and its fields' errors, in the page's language where they are the catalogue's texts. */
export function refusalWords(t: Words, err: AppError): Html {
  const fields = err.errors.length > 0 ? html`<ul>${err.errors.map((e) => html`<li>${t.known(e.message)}</li>`)}</ul>` : '';
  return html`<p>${t.known(err.detail)}</p>${fields}`;
}
