/** Catalogues: ICU messages per language, merged per service, and the checks every service's catalogue must pass. */
import assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { catalogueProblems, defineCatalogue, mergeCatalogues, translator, translators } from '../../src/index.js';

const card = defineCatalogue('card page', {
  en: {
    pay_button: 'Pay {amount}',
    attempts_left: '{count, plural, =0 {You have no attempts left.} one {You have 1 attempt left.} other {You have # attempts left.}}',
    expiry: 'Expiry date',
  },
  fr: {
    pay_button: 'Payer {amount}',
    attempts_left: "{count, plural, =0 {Vous n'avez plus de tentative.} one {Il vous reste # tentative.} other {Il vous reste # tentatives.}}",
    expiry: "Date d'expiration",
  },
  ar: {
    pay_button: 'ادفع {amount}',
    attempts_left:
      '{count, plural, zero {لم تعد لديك أي محاولة.} one {لديك محاولة واحدة.} two {لديك محاولتان.} few {لديك # محاولات.} many {لديك # محاولة.} other {لديك # محاولة.}}',
    expiry: 'تاريخ انتهاء الصلاحية',
  },
});
const receipt = defineCatalogue('receipts', {
  en: { greeting: 'Hello {name},', order: 'Order {number}' },
  fr: { greeting: 'Bonjour {name},', order: 'Commande {number}' },
  ar: { greeting: 'مرحبًا {name}،', order: 'الطلب {number}' },
});

describe('message catalogues', () => {
  it('when a message takes values, then each argument is filled; a message without one is its words, apostrophes kept', () => {
    const messages = mergeCatalogues(card, receipt);
    assert.equal(translator(messages, 'fr')('pay_button', { amount: '12,500 TND' }), 'Payer 12,500 TND');
    assert.equal(translator(messages, 'fr')('expiry'), "Date d'expiration");
    assert.equal(translator(messages, 'ar')('greeting', { name: 'Amina' }), 'مرحبًا Amina،');
    assert.throws(() => translator(messages, 'en')('pay_button'), /amount/);
  });

  it('when a plural is formatted, then each language takes its own form: Arabic its six', () => {
    const fr = translator(card, 'fr');
    const ar = translator(card, 'ar');
    assert.deepEqual([0, 1, 2, 5].map((count) => fr('attempts_left', { count })), [
      "Vous n'avez plus de tentative.",
      'Il vous reste 1 tentative.',
      'Il vous reste 2 tentatives.',
      'Il vous reste 5 tentatives.',
    ]);
    assert.deepEqual([0, 1, 2, 3, 11, 100].map((count) => ar('attempts_left', { count })), [
      'لم تعد لديك أي محاولة.',
      'لديك محاولة واحدة.',
      'لديك محاولتان.',
      'لديك 3 محاولات.',
      'لديك 11 محاولة.',
      'لديك 100 محاولة.',
    ]);
  });

  it('when values are isolated in a right-to-left language, then each text value is a bidi isolate; left-to-right ones are unchanged', () => {
    assert.equal(translator(card, 'ar', { isolateValues: true })('pay_button', { amount: '40.000 TND' }), 'ادفع \u206840.000 TND\u2069');
    assert.equal(translator(card, 'en', { isolateValues: true })('pay_button', { amount: '40.000 TND' }), 'Pay 40.000 TND');
  });

  it('when a value is markup, then the message comes in pieces with the markup kept as it was given', () => {
    const code = { markup: '<code>x</code>' };
    assert.deepEqual(translator(receipt, 'fr').parts('order', { number: code }), ['Commande ', code]);
    assert.deepEqual(translator(receipt, 'fr').parts('order', { number: '7' }), ['Commande 7']);
  });

  it('when English words arrive as data, then a known message is given in the language, one with plain arguments with the values the words had, others as they came', () => {
    const t = translator(card, 'fr');
    assert.equal(t.known('Expiry date'), "Date d'expiration");
    assert.equal(t.known('Pay 12.500 TND'), 'Payer 12.500 TND');
    assert.equal(translator(card, 'ar', { isolateValues: true }).known('Pay 3 EUR'), 'ادفع \u20683 EUR\u2069');
    assert.equal(t.known('Pay'), 'Pay', 'an argument takes at least one character');
    assert.equal(t.known('You have 2 attempts left.'), 'You have 2 attempts left.', 'a plural is not read back');
    assert.equal(t.known('toString'), 'toString');
    assert.equal(t.language, 'fr');
  });

  it('when a door makes its translators once, then there is one per language, each with the options given', () => {
    const all = translators(card, { isolateValues: true });
    assert.deepEqual(Object.keys(all).sort(), ['ar', 'en', 'fr']);
    assert.equal(all.ar.language, 'ar');
    assert.equal(all.ar('pay_button', { amount: 'X' }), 'ادفع \u2068X\u2069');
    assert.equal(all.fr('pay_button', { amount: 'X' }), 'Payer X');
  });

  it('when two areas define one key, then merging them fails at once', () => {
    const again = defineCatalogue('again', { en: { expiry: 'Expiry' }, fr: { expiry: 'Expiration' }, ar: { expiry: 'الانتهاء' } });
    assert.throws(() => mergeCatalogues(card, again), /expiry is defined by both card page and again/);
  });

  it('when a catalogue is sound, then it has no problem', () => {
    assert.deepEqual(catalogueProblems(mergeCatalogues(card, receipt)), []);
  });

  it('when a catalogue has mistakes, then each is named: arguments, plural forms, parse errors, English left, missing words', () => {
    const broken = {
      areas: ['broken'],
      messages: {
        en: { a: 'Pay {amount}', b: '{n, plural, one {# try} other {# tries}}', c: 'Card', d: 'Date', e: 'x' },
        fr: { a: 'Payer {montant}', b: '{n, plural, one {# essai} few {# essais} other {# essais}}', c: 'Carte', d: 'Date', e: 'y {' },
        ar: { a: 'ادفع {amount}', b: '{n, plural, one {محاولة}}', c: 'Card', d: 'التاريخ', f: 'زائد' },
      },
    } as never;
    assert.deepEqual(catalogueProblems(broken).sort(), [
      'ar.b: {n} has no "other" form',
      'ar.c: left in English',
      'ar.c: not written in Arabic',
      'ar.e: missing',
      'ar.f: not an English key',
      'fr.a: takes {montant}, English takes {amount}',
      'fr.b: {n} has a "few" form, which fr does not use',
      'fr.d: left in English',
      'fr.e: not an ICU message (EXPECT_ARGUMENT_CLOSING_BRACE)',
    ].sort());
    assert.deepEqual(catalogueProblems(broken, { sameAsEnglish: { fr: ['d'], ar: ['c'] } }).filter((p) => /\.[cd]:/.test(p)), []);
  });
});
