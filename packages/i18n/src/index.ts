/**
 * The one way to speak French, English and Arabic (STYLE 13): the language
 * type and its negotiation, ICU message catalogues per area, and amounts and
 * dates as each language writes them. Pages, mails and the dashboard all
 * speak through it.
 */
export { LANGUAGES, LANGUAGE_NAMES, LOCALES, directionOf, isLanguage, type Language } from './languages.js';
export { chooseLanguage, negotiateLanguage, parseAcceptLanguage } from './negotiation.js';
export {
  defineCatalogue,
  mergeCatalogues,
  translator,
  type Catalogue,
  type KeyOf,
  type MessageValues,
  type Messages,
  type Translate,
  type TranslatorOptions,
} from './catalogue.js';
export { catalogueProblems, type CatalogueCheckOptions } from './checks.js';
export { formatAmount, formatPercent, formatTunisDateTime } from './format.js';
