/**
 * The one catalogue of the dashboard and the console (D14, D15): every text
 * they show, in English, French and Arabic, as ICU messages, one area per
 * page. The English words are what people and tests find links and buttons
 * by. The Arabic is Modern Standard Arabic as Tunisian bank and accounting
 * pages write it, and as the hosted checkout speaks: Western digits, amounts
 * as decimal strings with the currency code, codes and ids as they are.
 */
import { mergeCatalogues, translators, type KeyOf, type Language, type Translate } from '@gateway/i18n';
import { API_KEY_TEXTS } from './api-keys.texts.js';
import { AUDIT_LOG_TEXTS } from './audit-log.texts.js';
import { BRANDING_REFUSAL_TEXTS } from './branding-refusals.texts.js';
import { COMMON_TEXTS } from './common.texts.js';
import { CUSTOMER_TEXTS } from './customers.texts.js';
import { EXCHANGE_RATE_TEXTS } from './exchange-rates.texts.js';
import { HOME_TEXTS } from './home.texts.js';
import { OPS_CONSOLE_TEXTS } from './ops-console.texts.js';
import { OPS_MANUAL_REFUND_TEXTS } from './ops-manual-refunds.texts.js';
import { OPS_MERCHANT_TEXTS } from './ops-merchants.texts.js';
import { PAYMENT_LINK_TEXTS } from './payment-links.texts.js';
import { PAYMENT_TEXTS } from './payments.texts.js';
import { REFUSAL_TEXTS } from './refusals.texts.js';
import { REPORT_TEXTS } from './reports.texts.js';
import { SECURITY_TEXTS } from './security.texts.js';
import { SETTINGS_TEXTS } from './settings.texts.js';
import { SHELL_TEXTS } from './shell.texts.js';
import { SIGN_IN_TEXTS } from './sign-in.texts.js';
import { TEAM_TEXTS } from './team.texts.js';
import { WEBHOOK_TEXTS } from './webhooks.texts.js';

export const DASHBOARD_TEXTS = mergeCatalogues(
  SHELL_TEXTS,
  COMMON_TEXTS,
  REFUSAL_TEXTS,
  SIGN_IN_TEXTS,
  SECURITY_TEXTS,
  HOME_TEXTS,
  PAYMENT_TEXTS,
  PAYMENT_LINK_TEXTS,
  CUSTOMER_TEXTS,
  REPORT_TEXTS,
  API_KEY_TEXTS,
  WEBHOOK_TEXTS,
  EXCHANGE_RATE_TEXTS,
  SETTINGS_TEXTS,
  BRANDING_REFUSAL_TEXTS,
  TEAM_TEXTS,
  AUDIT_LOG_TEXTS,
  OPS_CONSOLE_TEXTS,
  OPS_MERCHANT_TEXTS,
  OPS_MANUAL_REFUND_TEXTS,
);

/** A text the dashboard shows: a key of its catalogue. */
export type TextKey = KeyOf<typeof DASHBOARD_TEXTS>;

/** The dashboard's words in one language. */
export type Words = Translate<TextKey>;

const WORDS = translators(DASHBOARD_TEXTS, { isolateValues: true });

/**
 * The dashboard's words in `language`. In Arabic each value put into a
 * sentence is a bidi isolate, so that an amount, an id or an address keeps
 * its own order inside it.
 */
export function wordsIn(language: Language): Words {
  return WORDS[language];
}
