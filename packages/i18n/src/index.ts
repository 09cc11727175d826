/**
 * The one way to speak French, English and Arabic (STYLE 13): the language
 * type and its negotiation, ICU message catalogues per area, and amounts and
 * dates as each language writes them. Pages, mails and the dashboard all
 * speak through it.
 */
export { LANGUAGES, LANGUAGE_NAMES, directionOf, isLanguage, type Language } from './languages.js';
export { chooseLanguage, negotiateLanguage, parseAcceptLanguage } from './negotiation.js';
export {
  defineCatalogue,
  mergeCatalogues,
  translator,
  translators,
  /** No service imports it, but the declarations of their catalogues name it (TS2883 without it). @public */
  type Catalogue,
  type KeyOf,
  type Translate,
} from './catalogue.js';
export { catalogueProblems } from './checks.js';
export { formatAmount, formatPercent, formatTunisDateTime } from './format.js';
