/** Which language a reader gets: a chosen one, else the browser's Accept-Language, else the door's default. */
import assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { chooseLanguage, directionOf, isLanguage, negotiateLanguage, parseAcceptLanguage } from '../../src/index.js';

describe('language negotiation', () => {
  it('when a browser weighs its languages, then they come by q-value, ties in order, q=0 and malformed ranges dropped', () => {
    assert.deepEqual(parseAcceptLanguage('fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5'), ['fr-ch', 'fr', 'en', 'de', '*']);
    assert.deepEqual(parseAcceptLanguage('en;q=0.2, ar ;q=0.9,fr'), ['fr', 'ar', 'en']);
    assert.deepEqual(parseAcceptLanguage('ar;q=0, en;q=1.0, fr;q=0.000'), ['en']);
    assert.deepEqual(parseAcceptLanguage('en;q=2, <script>, fr;q=abc, ar'), ['ar']);
    assert.deepEqual(parseAcceptLanguage(''), []);
  });

  it('when a door negotiates, then it takes the first language the browser asks for by primary subtag, else its fallback', () => {
    assert.equal(negotiateLanguage('ar-TN,ar;q=0.9,fr;q=0.8', 'en'), 'ar');
    assert.equal(negotiateLanguage('de, fr;q=0.5, ar;q=0.7', 'en'), 'ar');
    assert.equal(negotiateLanguage('de, *;q=0.5, fr;q=0.1', 'en'), 'en');
    assert.equal(negotiateLanguage(undefined, 'fr'), 'fr');
  });

  it('when a language was chosen, then it wins; auto or nothing chosen asks the browser, then the fallback', () => {
    assert.equal(chooseLanguage('ar', 'en-US', 'fr'), 'ar');
    assert.equal(chooseLanguage('en', undefined, 'fr'), 'en');
    assert.equal(chooseLanguage('auto', 'de-DE, ar-TN;q=0.8, en;q=0.5', 'fr'), 'ar');
    assert.equal(chooseLanguage('auto', 'en-GB;q=0.4, fr-TN;q=0.6', 'fr'), 'fr');
    assert.equal(chooseLanguage('auto', 'de, it', 'fr'), 'fr');
    assert.equal(chooseLanguage('auto', '*', 'fr'), 'fr');
    assert.equal(chooseLanguage(undefined, 'AR', 'fr'), 'ar');
    assert.equal(chooseLanguage('de', undefined, 'en'), 'en');
  });

  it('when a value is checked, then only the three languages are languages, and only Arabic is right to left', () => {
    assert.deepEqual(['fr', 'en', 'ar', 'de', 'FR', '', undefined, 1].map(isLanguage), [true, true, true, false, false, false, false, false]);
    assert.deepEqual(['fr', 'en', 'ar'].map((l) => directionOf(l as 'fr')), ['ltr', 'ltr', 'rtl']);
  });
});
