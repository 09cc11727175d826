/**
 * The dashboard's languages (D14): its one catalogue is sound in English,
 * French and Arabic (every key in all three, ICU that parses, the same
 * arguments, plural forms each language has, nothing left in English but the
 * words listed below), and what the catalogue alone does not show: the
 * direction of each language, values isolated in Arabic, markup inside a
 * sentence, refusals that arrive in English, and which language a request gets.
 */
import assert from 'node:assert/strict';
import type { Request } from 'express';
import { describe, it } from 'mocha';
import { EXPORTS_BUSY } from '@gateway/exports';
import { catalogueProblems, directionOf, LANGUAGES } from '@gateway/i18n';
import { html } from '@gateway/runtime';
import { passwordProblems } from '../../src/domain/passwords.js';
import { ACCOUNT_LINK_GONE } from '../../src/domain/set-password.js';
import { languageOf } from '../../src/http/door.js';
import { languageSwitch, phrase } from '../../src/views/layout.js';
import { DASHBOARD_TEXTS, wordsIn } from '../../src/views/texts/catalogue.js';

/** French words spelled as the English ones: the French is right as it is. */
const FRENCH_AS_ENGLISH = ['pages_nav', 'mode', 'modes', 'description', 'date', 'net', 'active', 'totp_code', 'total', 'session', 'logo', 'terminal'];
/**
 * Names French readers use as they are: the product's (webhooks), the API's
 * (ID, URL, the modes `test` and `live`), the industry's (KYB), and a unit and
 * an equation.
 */
const NAMES_AS_THEY_ARE = ['webhooks_section', 'id', 'url', 'mode_test_word', 'mode_live_word', 'kyb', 'response_time', 'rate_saved'];

const request = (headers: Record<string, string>) => ({ headers }) as unknown as Request;

describe('dashboard languages', () => {
  it('when the catalogue is checked, then every key has sound English, French and Arabic, and only the listed French words are the English ones', () => {
    assert.deepEqual(catalogueProblems(DASHBOARD_TEXTS, { sameAsEnglish: { fr: [...FRENCH_AS_ENGLISH, ...NAMES_AS_THEY_ARE] } }), []);
  });

  it('when the language is Arabic, then the page is right to left, and every value put into a sentence keeps its own direction', () => {
    assert.deepEqual(
      LANGUAGES.map((language) => [language, directionOf(language)]),
      [['fr', 'ltr'], ['en', 'ltr'], ['ar', 'rtl']],
    );
    const t = wordsIn('ar');
    assert.equal(t('payments_section'), 'المدفوعات');
    assert.equal(t('captured_notice', { amount: '40.000 TND' }), 'تم تحصيل \u206840.000 TND\u2069.');
    // English and French sentences are left as they are: tests and people read them unchanged.
    assert.equal(wordsIn('en')('captured_notice', { amount: '40.000 TND' }), 'Captured 40.000 TND.');
    assert.equal(wordsIn('fr')('captured_notice', { amount: '40.000 TND' }), '40.000 TND capturés.');
  });

  it('when the language switch is shown, then it offers the other languages in their own words, English first', () => {
    const links = (language: 'en' | 'fr' | 'ar') => [...languageSwitch({ language, t: wordsIn(language), base: '/dashboard' }, '/dashboard/home').toString().matchAll(/hreflang="(\w+)">([^<]+)</g)].map((m) => `${m[1]}:${m[2]}`);
    assert.deepEqual(links('ar'), ['en:English', 'fr:Français']);
    assert.deepEqual(links('fr'), ['en:English', 'ar:العربية']);
    assert.deepEqual(links('en'), ['fr:Français', 'ar:العربية']);
  });

  it('when a count is shown, then each language takes its plural form, Arabic its own', () => {
    const values = (count: number) => ({ count, from: '2025-01-01', to: '2025-01-30', reason: 'Card declined', times: '1' });
    assert.equal(wordsIn('en')('declines_summary', values(1)), '1 declined payment attempt from 2025-01-01 to 2025-01-30; the most frequent reason: Card declined (1).');
    assert.equal(wordsIn('en')('declines_summary', values(2)), '2 declined payment attempts from 2025-01-01 to 2025-01-30; the most frequent reason: Card declined (1).');
    assert.match(wordsIn('fr')('declines_summary', values(1)), /^1 tentative de paiement refusée du /);
    assert.match(wordsIn('fr')('declines_summary', values(3)), /^3 tentatives de paiement refusées du /);
    const ar = wordsIn('ar');
    assert.deepEqual(
      [1, 2, 3, 11, 100].map((n) => ar('grace_hours', { n })),
      ['بعد ساعة', 'بعد ساعتين', 'بعد 3 ساعات', 'بعد 11 ساعة', 'بعد 100 ساعة'],
    );
    assert.equal(wordsIn('en')('grace_hours', { n: 24 }), 'in 24 h');
  });

  it('when a sentence takes markup, then its words are escaped and each piece of markup is isolated in a <bdi>', () => {
    assert.equal(phrase(wordsIn('ar'), 'terminal_configured', { user: html`<code>shop&lt;1&gt;</code>` }).toString(), 'مُهيّأ، المستخدم <bdi><code>shop&lt;1&gt;</code></bdi>');
    assert.equal(phrase(wordsIn('en'), 'terminal_configured', { user: 'a<b' }).toString(), 'Configured, user <bdi>a&lt;b</bdi>');
  });

  it("when a refusal's words are one of the catalogue's texts, then they are shown in the page's language; other words as they came", () => {
    assert.equal(wordsIn('ar').known('This merchant account is suspended.'), 'حساب هذا التاجر معلّق.');
    assert.equal(wordsIn('fr').known('This merchant account is suspended.'), 'Ce compte marchand est suspendu.');
    assert.equal(wordsIn('en').known('This merchant account is suspended.'), 'This merchant account is suspended.');
    assert.equal(wordsIn('fr').known('The SVG logo must be an <svg> image.'), 'Le logo SVG doit être une image <svg>.');
    assert.equal(wordsIn('ar').known('amount is more than is left to refund'), 'amount is more than is left to refund');
    assert.equal(wordsIn('ar').known('toString'), 'toString');
  });

  it("when the dashboard's own refusals arrive as English words, then each is a message of the catalogue, shown in French and Arabic", () => {
    // EXPORTS_BUSY: a Reports download past EXPORTS_PER_MERCHANT, refused in the words the API answers (D29).
    const refusals = [EXPORTS_BUSY, ACCOUNT_LINK_GONE.setup, ACCOUNT_LINK_GONE.reset, ...passwordProblems('short'), ...passwordProblems('x'.repeat(300))].map((r) => (typeof r === 'string' ? r : r.message));
    for (const english of refusals) {
      assert.notEqual(wordsIn('fr').known(english), english, english);
      assert.notEqual(wordsIn('ar').known(english), english, english);
    }
  });

  it('when a person chose a language, then it is kept; otherwise the first of ours their browser asks for, else English', () => {
    assert.equal(languageOf(request({ cookie: 'gw_lang=ar', 'accept-language': 'fr' })), 'ar');
    assert.equal(languageOf(request({ cookie: 'gw_lang=xx', 'accept-language': 'ar-TN,ar;q=0.9,fr;q=0.8' })), 'ar');
    assert.equal(languageOf(request({ 'accept-language': 'de-DE, fr;q=0.5, ar;q=0.7' })), 'ar');
    assert.equal(languageOf(request({ 'accept-language': 'fr-TN' })), 'fr');
    assert.equal(languageOf(request({ 'accept-language': 'ar;q=0, de' })), 'en');
    assert.equal(languageOf(request({ 'accept-language': '*, ar' })), 'en');
    assert.equal(languageOf(request({})), 'en');
  });
});
