/**
 * The hosted pages' words (D18), one catalogue per area merged into one: French
 * (the default) in the register of a French-language bank's payment page, with
 * the no-break space French typography puts before : and ;, English, and
 * Modern Standard Arabic as Tunisian bank pages use it (the page is right to
 * left). Which language a request gets is the domain's; a page takes the words
 * of that language.
 */
import { mergeCatalogues, translators, type KeyOf, type Language, type Translate } from '@gateway/i18n';
import { bankPagesCatalogue } from './bank-pages.catalogue.js';
import { cardErrorsCatalogue } from './card-errors.catalogue.js';
import { cardPageCatalogue } from './card-page.catalogue.js';
import { commonCatalogue } from './common.catalogue.js';
import { errorPagesCatalogue } from './error-pages.catalogue.js';
import { paymentLinkPageCatalogue } from './payment-link-page.catalogue.js';
import { statusPagesCatalogue } from './status-pages.catalogue.js';
import { walletCatalogue } from './wallet.catalogue.js';

export const CHECKOUT_CATALOGUE = mergeCatalogues(commonCatalogue, cardPageCatalogue, cardErrorsCatalogue, statusPagesCatalogue, bankPagesCatalogue, errorPagesCatalogue, paymentLinkPageCatalogue, walletCatalogue);

export type MessageKey = KeyOf<typeof CHECKOUT_CATALOGUE>;

/** The words of one language, as every page takes them; `t.language` is the page's language. */
export type PageTranslate = Translate<MessageKey>;

const TRANSLATORS = translators(CHECKOUT_CATALOGUE);

/** The pages' words in `language`. */
export function pageTranslator(language: Language): PageTranslate {
  return TRANSLATORS[language];
}

/** Whether `key` is a message of the pages (a decline's code turned into a key, say). */
export function isMessageKey(key: string): key is MessageKey {
  return Object.hasOwn(CHECKOUT_CATALOGUE.messages.en, key);
}
