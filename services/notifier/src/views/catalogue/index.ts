/**
 * The notifier's words (D18, D20), one catalogue per area merged into one:
 * receipts in the buyer's language, the people mails and the owners' notices
 * in the person's. Values are filled by the views, which escape them in HTML.
 */
import { mergeCatalogues, translators, type KeyOf, type Language, type Translate } from '@gateway/i18n';
import { commonCatalogue } from './common.catalogue.js';
import { ownerNoticesCatalogue } from './owner-notices.catalogue.js';
import { peopleMailsCatalogue } from './people-mails.catalogue.js';
import { receiptsCatalogue } from './receipts.catalogue.js';

export const NOTIFIER_CATALOGUE = mergeCatalogues(commonCatalogue, receiptsCatalogue, peopleMailsCatalogue, ownerNoticesCatalogue);

export type MessageKey = KeyOf<typeof NOTIFIER_CATALOGUE>;

/** The words of one language, as every mail takes them; `t.language` is the mail's language. */
export type MailTranslate = Translate<MessageKey>;

const TRANSLATORS = translators(NOTIFIER_CATALOGUE);

/** The mails' words in `language`. */
export function mailTranslator(language: Language): MailTranslate {
  return TRANSLATORS[language];
}
