/**
 * The dashboard's languages (D14, issue 29). That every text `t` is given is
 * in the French and the Arabic catalogue is the compiler's check (a Text is a
 * key of both, and each must hold them all); these tests check what types do
 * not: the placeholders of each translation, that the Arabic is Arabic, the
 * direction of each language, and which language a request gets.
 */
import assert from 'node:assert/strict';
import type { Request } from 'express';
import { describe, it } from 'mocha';
import { negotiateLanguage } from '@gateway/i18n';
import { html } from '@gateway/runtime';
import { languageOf } from '../../src/web/door.js';
import { CATALOGUES, directionOf, LANGUAGES, translateKnown, translator, type Text } from '../../src/web/i18n.js';
import { phrase } from '../../src/web/layout.js';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
const ARABIC_LETTER = /[\u0621-\u064A]/;
const request = (headers: Record<string, string>) => ({ headers }) as unknown as Request;

describe('dashboard languages', () => {
  it('when a text has {placeholders}, then its French and Arabic words take exactly the same ones, and none is empty', () => {
    for (const language of ['fr', 'ar'] as const) {
      for (const [english, words] of Object.entries(CATALOGUES[language])) {
        assert.ok(words.trim() !== '', `${language}: "${english}" is empty`);
        assert.deepEqual(placeholders(words), placeholders(english), `${language}: "${english}" → "${words}"`);
      }
    }
  });

  it('when a page is in Arabic, then every text is written in Arabic (codes and amounts inside it aside), not left in English', () => {
    const english = Object.entries(CATALOGUES.ar).filter(([, words]) => !ARABIC_LETTER.test(words));
    assert.deepEqual(english, []);
  });

  it('when the language is Arabic, then the page is right to left, and every value put into a sentence keeps its own direction', () => {
    assert.deepEqual(
      LANGUAGES.map((language) => [language, directionOf(language)]),
      [['en', 'ltr'], ['fr', 'ltr'], ['ar', 'rtl']],
    );
    const t = translator('ar');
    assert.equal(t('Payments'), 'المدفوعات');
    assert.equal(t('Captured {amount}.', { amount: '40.000 TND' }), 'تم تحصيل \u206840.000 TND\u2069.');
    // English and French sentences are left as they are: tests and people read them unchanged.
    assert.equal(translator('en')('Captured {amount}.', { amount: '40.000 TND' }), 'Captured 40.000 TND.');
    assert.equal(translator('fr')('Captured {amount}.', { amount: '40.000 TND' }), '40.000 TND capturés.');
  });

  it('when a sentence takes markup, then its words are escaped and each piece of markup is isolated in a <bdi>', () => {
    const t = translator('ar');
    const text: Text = 'Configured, user {user}';
    assert.equal(phrase(t, text, { user: html`<code>shop&lt;1&gt;</code>` }).toString(), 'مُهيّأ، المستخدم <bdi><code>shop&lt;1&gt;</code></bdi>');
    assert.equal(phrase(translator('en'), text, { user: 'a<b' }).toString(), 'Configured, user <bdi>a&lt;b</bdi>');
  });

  it("when a refusal's words are one of the catalogue's texts, then they are shown in the page's language; other words as they came", () => {
    assert.equal(translateKnown('ar', 'This merchant account is suspended.'), 'حساب هذا التاجر معلّق.');
    assert.equal(translateKnown('fr', 'This merchant account is suspended.'), 'Ce compte marchand est suspendu.');
    assert.equal(translateKnown('en', 'This merchant account is suspended.'), 'This merchant account is suspended.');
    assert.equal(translateKnown('ar', 'amount is more than is left to refund'), 'amount is more than is left to refund');
    assert.equal(translateKnown('ar', 'toString'), 'toString');
  });

  it('when a person chose a language, then it is kept; otherwise the first of ours their browser asks for, else English', () => {
    assert.equal(languageOf(request({ cookie: 'gw_lang=ar', 'accept-language': 'fr' })), 'ar');
    assert.equal(languageOf(request({ cookie: 'gw_lang=xx', 'accept-language': 'ar-TN,ar;q=0.9,fr;q=0.8' })), 'ar');
    assert.equal(languageOf(request({ 'accept-language': 'de-DE, fr;q=0.5, ar;q=0.7' })), 'ar');
    assert.equal(languageOf(request({ 'accept-language': 'fr-TN' })), 'fr');
    assert.equal(languageOf(request({ 'accept-language': 'ar;q=0, de' })), 'en');
    assert.equal(languageOf(request({})), 'en');
    assert.equal(negotiateLanguage('*, ar', 'en'), 'en');
  });
});
