/** The hosted page's languages (D18): the catalogue, the choice of language, and amounts per language. */
import assert from 'node:assert/strict';
import { catalogueProblems, chooseLanguage, LANGUAGES } from '@gateway/i18n';
import {
  CHECKOUT_CATALOGUE,
  pageTranslator,
  renderBankPage,
  renderCheckoutLinkExpiredPage,
  renderErrorPage,
  renderMethodPage,
  renderPaymentPage,
  renderProcessingPage,
} from '../../src/pages/index.js';

describe('checkout languages', () => {
  it('when the catalogue is checked, then every key has all three languages, parses as ICU, takes the same arguments, has valid plural forms and nothing is left in English', () => {
    assert.deepEqual([...LANGUAGES].sort(), ['ar', 'en', 'fr']);
    assert.deepEqual(catalogueProblems(CHECKOUT_CATALOGUE), []);
    for (const language of LANGUAGES) {
      for (const [key, words] of Object.entries(CHECKOUT_CATALOGUE.messages[language])) assert.ok(words.trim().length > 0, `${language}.${key} is empty`);
    }
    for (const words of Object.values(CHECKOUT_CATALOGUE.messages.ar)) assert.match(words, /[\u0600-\u06ff]/, 'written in Arabic');
  });

  it('when values are filled, then each is replaced, and a missing one is refused rather than shown', () => {
    assert.equal(pageTranslator('fr')('attempts_left', { count: 3 }), 'Il vous reste 3 tentatives.');
    assert.equal(pageTranslator('ar')('pay_button', { amount: 'X' }), 'ادفع X');
    assert.throws(() => pageTranslator('en')('pay_button'), /amount/);
  });

  it('when the attempts left are told, then each language takes its plural form: none, one, and Arabic its two, few and many', () => {
    const told = (language: 'fr' | 'en' | 'ar', counts: number[]) => counts.map((count) => pageTranslator(language)('attempts_left', { count }));
    assert.deepEqual(told('en', [0, 1, 2, 4]), ['No attempts left.', 'You can try 1 more time.', 'You can try 2 more times.', 'You can try 4 more times.']);
    assert.deepEqual(told('fr', [0, 1, 4]), ["Vous n'avez plus de tentative.", 'Il vous reste 1 tentative.', 'Il vous reste 4 tentatives.']);
    assert.deepEqual(told('ar', [0, 1, 2, 4, 11, 100]), [
      'لم تعد لديك أي محاولة متبقية.',
      'تبقّت لديك محاولة واحدة.',
      'تبقّت لديك محاولتان.',
      'تبقّت لديك 4 محاولات.',
      'تبقّت لديك 11 محاولة.',
      'تبقّت لديك 100 محاولة.',
    ]);
  });

  it('when the language is chosen, then the session locale wins, then the best Accept-Language the page speaks, then French', () => {
    // As the flow and the payment link page ask: French when nothing else says.
    const choose = (locale: string | undefined, acceptLanguage: string | undefined) => chooseLanguage(locale, acceptLanguage, 'fr');
    assert.equal(choose('ar', 'en-US'), 'ar');
    assert.equal(choose('en', undefined), 'en');
    assert.equal(choose('auto', 'de-DE, ar-TN;q=0.8, en;q=0.5'), 'ar');
    assert.equal(choose('auto', 'en-GB;q=0.4, fr-TN;q=0.6'), 'fr');
    assert.equal(choose('auto', 'de, it'), 'fr');
    assert.equal(choose('auto', '*'), 'fr');
    assert.equal(choose(undefined, 'AR'), 'ar');
    assert.equal(choose('auto', undefined), 'fr');
  });

  it('when the page is Arabic, then <html> is lang="ar" dir="rtl" and the card number, expiry and code inputs stay left to right', () => {
    const html = renderPaymentPage(pageTranslator('ar'), {
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
    assert.match(renderCheckoutLinkExpiredPage(pageTranslator('fr'), 'paid'), /<html lang="fr" dir="ltr">[\s\S]*Ce lien de paiement a expiré[\s\S]*Cette commande a déjà été réglée\./);
    assert.match(renderErrorPage(pageTranslator('ar'), 404), /<html lang="ar" dir="rtl">[\s\S]*<title>الصفحة غير موجودة<\/title>/);
    const bank = renderBankPage(pageTranslator('ar'), { url: 'https://acs.example/c', fields: { creq: 'c' } });
    assert.match(bank, /<html lang="ar" dir="rtl">[\s\S]*<h1>جارٍ تحويلك إلى مصرفك<\/h1>[\s\S]*>متابعة<\/button>/);
    const method = { form: { url: 'https://acs.example/m', fields: { threeDSMethodData: 'd' } }, continueUrl: '/checkout/t/3ds/pa_1/method', waitMs: 10_000 };
    assert.match(renderMethodPage(pageTranslator('fr'), method), /<h1>Vérification de votre carte<\/h1>[\s\S]*auprès de votre banque[\s\S]*>Continuer<\/button>/);
    assert.match(renderMethodPage(pageTranslator('ar'), method), /<html lang="ar" dir="rtl">[\s\S]*<h1>جارٍ التحقق من بطاقتك<\/h1>[\s\S]*name="language" value="ar"/);
    const order = { merchantName: 'Librairie', amount: '1250.000', description: '', items: [], orderNumber: 'ORD-1', livemode: false };
    const processing = renderProcessingPage(pageTranslator('fr'), order, '/checkout/t/result', 2);
    assert.match(processing, /<h1>Paiement en cours<\/h1>[\s\S]*<dd>1\u202f250,000\u00a0TND<\/dd>[\s\S]*Mode test\u00a0: aucune somme réelle/);
  });
});
