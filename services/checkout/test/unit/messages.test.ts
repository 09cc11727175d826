/** The hosted page's languages (D18): catalogues, the choice of language, and amounts per language. */
import assert from 'node:assert/strict';
import { chooseLanguage } from '../../src/domain/language.js';
import {
  CATALOGUES,
  formatAmount,
  renderChallengePage,
  renderErrorPage,
  renderLinkExpiredPage,
  renderPaymentPage,
  renderProcessingPage,
  translate,
  type Language,
  type MessageKey,
} from '../../src/pages/index.js';

const LANGUAGES = Object.keys(CATALOGUES) as Language[];
const KEYS = Object.keys(CATALOGUES.en) as MessageKey[];
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('checkout languages', () => {
  it('when the catalogues are read, then every language has every key, no other key, no empty wording and the same placeholders', () => {
    assert.deepEqual(LANGUAGES.sort(), ['ar', 'en', 'fr']);
    for (const language of LANGUAGES) {
      const catalogue = CATALOGUES[language];
      assert.deepEqual(Object.keys(catalogue).sort(), [...KEYS].sort(), language);
      for (const key of KEYS) {
        assert.ok(catalogue[key].trim().length > 0, `${language}.${key} is empty`);
        assert.deepEqual(placeholders(catalogue[key]), placeholders(CATALOGUES.en[key]), `${language}.${key} placeholders`);
      }
    }
  });

  it('when a wording is not English, then it is not the English one left untranslated', () => {
    // Names that read the same in French and English are the exceptions.
    const same = new Set<MessageKey>(['error_prefix']);
    for (const key of KEYS) {
      if (!same.has(key)) assert.notEqual(CATALOGUES.fr[key], CATALOGUES.en[key], `fr.${key}`);
      assert.notEqual(CATALOGUES.ar[key], CATALOGUES.en[key], `ar.${key}`);
      assert.match(CATALOGUES.ar[key], /[\u0600-\u06ff]/, `ar.${key} is written in Arabic`);
    }
  });

  it('when placeholders are filled, then each is replaced and an unknown one is left visible', () => {
    assert.equal(translate('fr', 'attempts_many', { n: 3 }), 'Il vous reste 3 tentatives.');
    assert.equal(translate('ar', 'pay_button', { amount: 'X' }), 'ادفع X');
    assert.equal(translate('en', 'pay_button'), 'Pay {amount}');
  });

  it('when the language is chosen, then the session locale wins, then the best Accept-Language the page speaks, then French', () => {
    assert.equal(chooseLanguage('ar', 'en-US'), 'ar');
    assert.equal(chooseLanguage('en', undefined), 'en');
    assert.equal(chooseLanguage('auto', 'de-DE, ar-TN;q=0.8, en;q=0.5'), 'ar');
    assert.equal(chooseLanguage('auto', 'en-GB;q=0.4, fr-TN;q=0.6'), 'fr');
    assert.equal(chooseLanguage('auto', 'de, it'), 'fr');
    assert.equal(chooseLanguage('auto', '*'), 'fr');
    assert.equal(chooseLanguage(undefined, 'AR'), 'ar');
    assert.equal(chooseLanguage('auto', undefined), 'fr');
  });

  it('when amounts are formatted, then each language writes its separators and the code, every digit of the decimal string kept', () => {
    assert.equal(formatAmount('1234567.890', 'TND', 'fr'), '1\u202f234\u202f567,890\u00a0TND');
    assert.equal(formatAmount('1234567.890', 'TND', 'en'), 'TND\u00a01,234,567.890');
    assert.equal(formatAmount('1234567.890', 'TND', 'ar'), '\u200f1.234.567,890\u00a0TND');
    // Beyond what a float holds exactly: still digit for digit.
    assert.equal(formatAmount('9007199254740993.999', 'TND', 'en'), 'TND\u00a09,007,199,254,740,993.999');
    assert.equal(formatAmount('0.005', 'TND', 'fr'), '0,005\u00a0TND');
    assert.equal(formatAmount('3.75', 'EUR', 'en'), 'EUR\u00a03.75');
    assert.equal(formatAmount('3.7', 'EUR', 'en'), 'EUR\u00a03.70');
    assert.equal(formatAmount('1500', 'JPY', 'fr'), '1\u202f500\u00a0JPY');
    assert.equal(formatAmount('-0.500', 'TND', 'en'), '-TND\u00a00.500');
    assert.equal(formatAmount('-12.500', 'TND', 'fr'), '-12,500\u00a0TND');
  });

  it('when the page is Arabic, then <html> is lang="ar" dir="rtl" and the card number, expiry and code inputs stay left to right', () => {
    const html = renderPaymentPage({
      language: 'ar',
      order: { merchantName: 'Librairie', amount: '12.500', description: '', items: [], orderNumber: 'ORD-1', livemode: true },
      actionUrl: '/checkout/t/pay',
      cancelHref: '/checkout/t/cancel',
    });
    assert.ok(html.startsWith('<!doctype html>\n<html lang="ar" dir="rtl">'));
    for (const name of ['card_number', 'expiry', 'cvc']) assert.match(html, new RegExp(`<input id="${name}"[^>]* dir="ltr"`), name);
    assert.doesNotMatch(html, /<input id="cardholder_name"[^>]* dir=/);
    assert.ok(html.includes('<button type="submit" class="pay">ادفع \u200f12,500\u00a0TND</button>'));
  });

  it('when the status pages render in French or Arabic, then their words are that language’s', () => {
    assert.match(renderLinkExpiredPage('fr', 'paid'), /<html lang="fr" dir="ltr">[\s\S]*Ce lien de paiement a expiré[\s\S]*Cette commande a déjà été réglée\./);
    assert.match(renderErrorPage('ar', 404), /<html lang="ar" dir="rtl">[\s\S]*<title>الصفحة غير موجودة<\/title>/);
    const bank = renderChallengePage('ar', { acsUrl: 'https://acs.example/c', paReq: 'p', md: 'm', termUrl: 'https://pay.example/t' });
    assert.match(bank, /<h1>جارٍ تحويلك إلى مصرفك<\/h1>[\s\S]*>متابعة<\/a>/);
    const order = { merchantName: 'Librairie', amount: '1250.000', description: '', items: [], orderNumber: 'ORD-1', livemode: false };
    const processing = renderProcessingPage('fr', order, '/checkout/t/result', 2);
    assert.match(processing, /<h1>Paiement en cours<\/h1>[\s\S]*<dd>1\u202f250,000\u00a0TND<\/dd>[\s\S]*Mode test\u00a0: aucune somme réelle/);
  });
});
